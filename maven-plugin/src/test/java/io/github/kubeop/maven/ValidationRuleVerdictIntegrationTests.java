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

package io.github.kubeop.maven;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.kubeop.test.KubernetesTest;
import io.kubernetes.client.openapi.ApiClient;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compares the verdict of {@link ValidationRuleChecker} on validation rules with the
 * verdict of a real API server, which compiles the rules when a CustomResourceDefinition
 * is created (here with {@code dryRun=All}, so nothing is stored): for every rule, both
 * accept it or both reject it, except for what the checker leaves to the API server, the
 * cost estimate.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ValidationRuleVerdictIntegrationTests {

	private static final ObjectMapper JSON = new ObjectMapper();

	private static ApiClient client;

	@BeforeAll
	static void connect(ApiClient apiClient) {
		client = apiClient;
	}

	@Test
	void checkerAndApiServerAgree() throws Exception {
		List<Case> cases = List.of(
				// plain rules, field access and types
				accepted("/properties/spec", "{\"rule\": \"self.count >= 0 && self.ratio < 1.5 && self.enabled\"}"),
				rejected("/properties/spec", "{\"rule\": \"self.cuont >= 0\"}"),
				rejected("/properties/spec", "{\"rule\": \"self.name > 3\"}"),
				rejected("/properties/spec", "{\"rule\": \"size(self.name)\"}"),
				rejected("/properties/spec", "{\"rule\": \"self.name.startsWith(\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.when < timestamp('2030-01-01T00:00:00Z')\"}"),
				rejected("/properties/spec", "{\"rule\": \"self.when < '2030-01-01'\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.port == 80 || self.port == 'http'\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.limits.minimum <= self.limits.maximum\"}"),
				// cross-type numeric comparisons, but no cross-type equality
				accepted("/properties/spec", "{\"rule\": \"has(self.limits) && self.count < 1.5\"}"),
				rejected("/properties/spec", "{\"rule\": \"has(self.limits) && self.count == 1.0\"}"),
				accepted("/properties/spec/properties/limits", "{\"rule\": \"self.minimum <= self.maximum\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.__namespace__ == 'default'\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.namespace == 'default'\"}"),
				// the resource root: of metadata, only name and generateName
				accepted("", "{\"rule\": \"self.metadata.name.size() < 20\"}"),
				rejected("", "{\"rule\": \"self.metadata.labels.size() > 0\"}"),
				// messages, reasons and field paths
				accepted("/properties/spec",
						"{\"rule\": \"self.count > 0\", \"message\": \"count must be positive\","
								+ " \"reason\": \"FieldValueForbidden\", \"fieldPath\": \".count\"}"),
				rejected("/properties/spec", "{\"rule\": \"self.count > 0\", \"message\": \"two\\nlines\"}"),
				rejected("/properties/spec", "{\"rule\": \"self.count > 0\", \"fieldPath\": \".cuont\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.count > 0\", \"fieldPath\": \".labels['team']\"}"),
				rejected("/properties/spec", "{\"rule\": \"self.count > 0\", \"reason\": \"Unknown\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.count > 0\", \"messageExpression\": \"self.name\"}"),
				rejected("/properties/spec", "{\"rule\": \"self.count > 0\", \"messageExpression\": \"self.count\"}"),
				// transition rules
				accepted("/properties/spec/properties/name", "{\"rule\": \"self == oldSelf\"}"),
				accepted("/properties/spec/properties/count",
						"{\"rule\": \"!oldSelf.hasValue() || self >= oldSelf.value()\", \"optionalOldSelf\": true}"),
				rejected("/properties/spec/properties/count", "{\"rule\": \"self > 0\", \"optionalOldSelf\": true}"),
				rejected("/properties/spec/properties/members/items/properties/name",
						"{\"rule\": \"self == oldSelf\"}"),
				accepted("/properties/spec/properties/members/items/properties/name", "{\"rule\": \"self != ''\"}"),
				accepted("/properties/spec/properties/labels/additionalProperties", "{\"rule\": \"self == oldSelf\"}"),
				// comprehensions over bounded collections
				accepted("/properties/spec/properties/hosts",
						"{\"rule\": \"self.all(h, h.endsWith('.example.com'))\"}"),
				accepted("/properties/spec/properties/labels", "{\"rule\": \"self.all(k, self[k].size() <= 63)\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.ports.all(i, p, p > i)\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.members.exists_one(m, m.name == 'lead')\"}"),
				// the API server's function libraries
				accepted("/properties/spec",
						"{\"rule\": \"isQuantity(self.name) && quantity(self.name).isLessThan(quantity('1Gi'))\"}"),
				accepted("/properties/spec",
						"{\"rule\": \"isURL(self.name) && url(self.name).getScheme() == 'https'\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.ports.isSorted() && self.ports.sum() < 100000\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.ports.indexOf(80) < 5 && self.ports.max() < 65536\"}"),
				accepted("/properties/spec",
						"{\"rule\": \"self.name.find('[a-z]+') != '' && self.name.findAll('[0-9]').size() < 4\"}"),
				accepted("/properties/spec", "{\"rule\": \"isIP(self.name) && ip(self.name).family() == 4\"}"),
				accepted("/properties/spec",
						"{\"rule\": \"isCIDR(self.name) && cidr(self.name).containsIP('10.0.0.1')\"}"),
				accepted("/properties/spec", "{\"rule\": \"!format.dns1123Label().validate(self.name).hasValue()\"}"),
				accepted("/properties/spec", "{\"rule\": \"isSemver(self.name) && semver(self.name).major() >= 1\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.name.lowerAscii().split('.').size() <= 4\"}"),
				accepted("/properties/spec", "{\"rule\": \"sets.contains(self.ports, [80])\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.?name.orValue('') != 'x'\"}"),
				accepted("/properties/spec", "{\"rule\": \"self.name.matches('^[a-z]+$')\"}"),
				rejected("/properties/spec", "{\"rule\": \"self.name.noSuchFunction()\"}"),
				// cost: rules over unbounded data
				costOnly("/properties/spec/properties/tags", "{\"rule\": \"self.all(t, t.matches('^[a-z]+$'))\"}"),
				costOnly("/properties/spec/properties/count",
						"{\"rule\": \"self > 0\", \"messageExpression\": \"'count ' + string(self) + ' is too small'\"}"),
				costOnly("/properties/spec/properties/hosts",
						"{\"rule\": \"self.all(h, h.endsWith('.example.com'))\", \"messageExpression\": "
								+ "\"'not under example.com: ' + self.filter(h, !h.endsWith('.example.com')).join(', ')\"}"),
				accepted("/properties/spec",
						"{\"rule\": \"self.name == 'x'\", \"messageExpression\": \"'name ' + self.name + ' is wrong'\"}"));
		List<String> disagreements = new ArrayList<>();
		StringBuilder table = new StringBuilder();
		for (Case probe : cases) {
			String checker = checkerVerdict(probe);
			String server = serverVerdict(probe);
			table.append(String.format("%-8s %-8s %s%n", (checker == null) ? "accepts" : "rejects",
					(server == null) ? "accepts" : "rejects", probe.rule));
			boolean checkerAccepts = checker == null;
			boolean serverAccepts = server == null;
			boolean expectedByChecker = probe.expected != Verdict.REJECTED;
			boolean expectedByServer = probe.expected == Verdict.ACCEPTED;
			if (checkerAccepts != expectedByChecker || serverAccepts != expectedByServer) {
				disagreements.add(probe.rule + " at '" + probe.pointer + "': expected " + probe.expected + ", checker "
						+ ((checker == null) ? "accepts" : "rejects: " + checker) + ", API server "
						+ ((server == null) ? "accepts" : "rejects: " + server));
			}
		}
		System.out.println(table);
		assertThat(disagreements).isEmpty();
	}

	private static String checkerVerdict(Case probe) {
		ObjectNode crd = definition(probe);
		try {
			ValidationRuleChecker.check(Probe.class, (ObjectNode) crd.at("/spec/versions/0/schema/openAPIV3Schema"),
					true);
			return null;
		}
		catch (IllegalArgumentException ex) {
			return ex.getMessage();
		}
	}

	private static String serverVerdict(Case probe) throws Exception {
		ObjectNode crd = definition(probe);
		Request request = new Request.Builder()
			.url(client.getBasePath() + "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All")
			.post(RequestBody.create(crd.toString(), MediaType.get("application/json")))
			.build();
		try (Response response = client.getHttpClient().newCall(request).execute()) {
			String body = response.body().string();
			if (response.code() == 201) {
				return null;
			}
			assertThat(response.code()).as(body).isEqualTo(422);
			return JSON.readTree(body).path("message").asText();
		}
	}

	private static ObjectNode definition(Case probe) {
		ObjectNode crd = new CrdGenerator(null, false).customResourceDefinition(Probe.class);
		ObjectNode schema = (ObjectNode) crd.at("/spec/versions/0/schema/openAPIV3Schema" + probe.pointer);
		ArrayNode rules = schema.withArray("x-kubernetes-validations");
		try {
			rules.add(JSON.readTree(probe.rule));
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
		return crd;
	}

	private static Case accepted(String pointer, String rule) {
		return new Case(pointer, rule, Verdict.ACCEPTED);
	}

	private static Case rejected(String pointer, String rule) {
		return new Case(pointer, rule, Verdict.REJECTED);
	}

	// a rule the checker accepts and the API server rejects for its estimated cost
	private static Case costOnly(String pointer, String rule) {
		return new Case(pointer, rule, Verdict.REJECTED_FOR_COST);
	}

	enum Verdict {

		ACCEPTED, REJECTED, REJECTED_FOR_COST

	}

	record Case(String pointer, String rule, Verdict expected) {
	}

}
