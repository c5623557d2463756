/**
 * Admission and conversion webhooks as Spring beans: methods annotated with
 * {@link io.github.kubeop.webhook.ValidatingWebhook @ValidatingWebhook} or
 * {@link io.github.kubeop.webhook.MutatingWebhook @MutatingWebhook} answer the API
 * server's {@code AdmissionReview}s, {@link io.github.kubeop.webhook.VersionConverter}
 * beans its {@code ConversionReview}s; the application's own web server serves them over
 * TLS, and their configurations are generated at build time (or registered with a local
 * control plane at startup).
 */
package io.github.kubeop.webhook;
