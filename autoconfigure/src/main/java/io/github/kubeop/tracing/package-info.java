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
/**
 * Traces of handler calls and of the writes they make, through Micrometer's Observation
 * API: an observation per handler call, opened in scope on the worker thread so that the
 * call's log lines carry its trace and span ids, with a child observation per write the
 * {@code KubernetesTemplate} sends. Names and tags are documented in
 * {@link io.github.kubeop.tracing.KubeopObservation} and can be changed with an
 * {@link io.micrometer.observation.ObservationConvention} bean.
 */
package io.github.kubeop.tracing;
