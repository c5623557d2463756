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
 * The write side of an operator: {@link io.github.kubeop.write.KubernetesTemplate} for
 * every read and write an operator makes (server-side apply of desired objects and
 * status, owned by the handled object or {@link io.github.kubeop.write.ApplyOptions not
 * owned}, never taken from another controller:
 * {@link io.github.kubeop.write.AlreadyOwnedException}; reads from a cache or the server,
 * creates, {@link io.github.kubeop.write.Patch patches},
 * {@link io.github.kubeop.write.DeleteOptions deletes with preconditions}, scale), with
 * read-after-write and no wasted writes ({@code LiveComparison}, {@code WrittenObjects});
 * and {@link io.github.kubeop.write.Conditions} for the {@code status.conditions} lists
 * that Kubernetes API conventions ask for.
 */
package io.github.kubeop.write;
