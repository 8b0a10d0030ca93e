package shaper.proxy.client;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The key manager of a TLS setup without a client certificate: it offers none, and notes the
 * sockets whose upstream asked for one. Under TLS 1.3 an upstream that demands a certificate
 * refuses only after the client finished its side of the handshake, so the failure shows at the
 * request's write or the answer's first read as a broken pipe or a closed connection; the note lets
 * that error say what the upstream wanted. The JDK calls {@link #chooseClientAlias} only when the
 * server sent a certificate request.
 */
final class CertificateWatch extends X509ExtendedKeyManager {
    /** Weak: a socket that never reports its note is forgotten with it. */
    private final Set<Socket> asked = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    /** Whether the upstream behind {@code socket} asked for a client certificate; the note is taken. */
    boolean asked(Socket socket) {
        return asked.remove(socket);
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        if (socket != null) {
            asked.add(socket);
        }
        return null;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return null;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return null;
    }
}
