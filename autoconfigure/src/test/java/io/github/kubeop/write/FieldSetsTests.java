/*
 * Copyright 2026 the Kubeop authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.github.kubeop.write;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FieldSets}, on field sets as the API server writes them.
 *
 * @author Kubeop authors
 */
class FieldSetsTests {

	@Test
	void keepsOwnFieldsAndUnownedOnesAndDropsWhatOnlyOthersOwn() {
		JsonObject deployment = json("""
				{"metadata": {"name": "web", "labels": {"app": "web", "team": "blue"},
				  "finalizers": ["other.example/keep"]},
				 "spec": {"replicas": 5, "revisionHistoryLimit": 10,
				  "selector": {"matchLabels": {"app": "web"}},
				  "template": {"spec": {"containers": [
				   {"name": "web", "image": "nginx", "env": [{"name": "INJECTED", "value": "1"}]},
				   {"name": "sidecar", "image": "proxy"}]}}}}""");
		JsonObject ours = json("""
				{"f:metadata": {"f:labels": {"f:app": {}}},
				 "f:spec": {"f:selector": {}, "f:template": {"f:spec": {"f:containers": {
				  "k:{\\"name\\":\\"web\\"}": {".": {}, "f:name": {}, "f:image": {}}}}}}}""");
		JsonObject others = json("""
				{"f:metadata": {"f:labels": {"f:team": {}}, "f:finalizers": {"v:\\"other.example/keep\\"": {}}},
				 "f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {
				  "k:{\\"name\\":\\"web\\"}": {"f:env": {"k:{\\"name\\":\\"INJECTED\\"}": {".": {}, "f:name": {},
				   "f:value": {}}}},
				  "k:{\\"name\\":\\"sidecar\\"}": {".": {}, "f:name": {}, "f:image": {}}}}}}}""");
		FieldSets.removeOwnedByOthers(deployment, others, ours);
		assertThat(deployment).isEqualTo(json("""
				{"metadata": {"name": "web", "labels": {"app": "web"}},
				 "spec": {"revisionHistoryLimit": 10,
				  "selector": {"matchLabels": {"app": "web"}},
				  "template": {"spec": {"containers": [{"name": "web", "image": "nginx"}]}}}}"""));
	}

	@Test
	void keepsWhatThisManagerOwnsWithOthers() {
		JsonObject configMap = json("""
				{"metadata": {"name": "shared", "annotations": {"note": "a"}}, "data": {"k": "1"}}""");
		JsonObject both = json("""
				{"f:metadata": {"f:annotations": {"f:note": {}}}, "f:data": {"f:k": {}}}""");
		FieldSets.removeOwnedByOthers(configMap, both, both.deepCopy());
		assertThat(configMap).isEqualTo(json("""
				{"metadata": {"name": "shared", "annotations": {"note": "a"}}, "data": {"k": "1"}}"""));
	}

	@Test
	void mergeAddsNestedFields() {
		JsonObject into = json("""
				{"f:data": {"f:a": {}}}""");
		FieldSets.merge(into, json("""
				{"f:data": {"f:b": {}}, "f:metadata": {"f:labels": {"f:x": {}}}}"""));
		assertThat(into).isEqualTo(json("""
				{"f:data": {"f:a": {}, "f:b": {}}, "f:metadata": {"f:labels": {"f:x": {}}}}"""));
	}

	private static JsonObject json(String text) {
		return JsonParser.parseString(text).getAsJsonObject();
	}

}
