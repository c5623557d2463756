/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease, with client-go's semantics:
 * every replica keeps warm caches, only the leader runs handler workers, every renewal is
 * bounded by the renew deadline, and a replica that loses the lease interrupts its
 * running handler calls before another replica can take over, then competes again (or
 * exits, if configured to).
 */
package io.github.kubeop.leader;
