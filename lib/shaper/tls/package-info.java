/**
 * TLS material read from PEM files, the one way the proxy takes certificates and keys for its own
 * TLS clients (the upstream wire and the Redis link): certificate bundles ({@code BEGIN CERTIFICATE}
 * blocks), an unencrypted PKCS#8 private key ({@code BEGIN PRIVATE KEY}: RSA, EC or Ed25519), and
 * an {@link javax.net.ssl.SSLContext} built from them whose trust either adds a bundle to the
 * system's or replaces it. Files are read when a context is built (startup, and each configuration
 * reload); a file that cannot be read or parsed is a {@link shaper.config.ConfigException} naming
 * the flag and the file, never the key's bytes. Stateless; safe from any thread.
 */
package shaper.tls;
