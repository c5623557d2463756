/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease, with client-go's semantics:
 * every replica keeps warm caches, only the leader runs handler workers, and a replica
 * that loses the lease stops its workers and competes again instead of exiting.
 */
package io.github.kubeop.leader;
