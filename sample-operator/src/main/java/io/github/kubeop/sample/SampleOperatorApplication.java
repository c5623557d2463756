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

package io.github.kubeop.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The sample operator, built only on the Kubeop starter. It watches greeting ConfigMaps
 * (label {@code sample.kubeop.io/greeting}) in the {@code kubeop-sample} namespace and
 * answers each one with a reply ConfigMap it owns.
 *
 * @author Kubeop authors
 */
@SpringBootApplication
public class SampleOperatorApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleOperatorApplication.class, args);
	}

}
