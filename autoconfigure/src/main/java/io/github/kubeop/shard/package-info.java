/**
 * Sharding: the replicas of one operator split its keys, coordinated through the API
 * server alone. Each replica renews a Lease of its own; the live members form a
 * consistent-hash ring kept on another Lease; keys move between replicas through a drain
 * acknowledged on the members' Leases, so that no key is ever handled by two replicas at
 * once.
 */
package io.github.kubeop.shard;
