/**
 * Auto-configuration of Kubeop's health contributor and its readiness group membership.
 */
package io.github.kubeop.autoconfigure.health;
