package dev.caldera.cdstraining;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * The training API server's TLS, shaped like a kube-apiserver's: an RSA 2048 certificate authority
 * and a serving certificate for {@code 127.0.0.1} it signs (SHA256withRSA, for server
 * authentication), made in memory at each start. The client then validates a two-certificate path
 * against the kubeconfig's {@code certificate-authority-data} and checks the address, as against a
 * real cluster. The certificates are written here in DER by hand because the JDK has no public API
 * that makes one.
 */
final class TrainingTls {

  private static final char[] PASSWORD = "training".toCharArray();
  private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'");

  private final X509Certificate ca;
  private final SSLContext server;

  private TrainingTls(X509Certificate ca, SSLContext server) {
    this.ca = ca;
    this.server = server;
  }

  /** A new authority and serving certificate. */
  static TrainingTls create() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    KeyPair caKeys = generator.generateKeyPair();
    KeyPair serverKeys = generator.generateKeyPair();
    X509Certificate ca =
        certificate(
            "caldera-training-ca",
            "caldera-training-ca",
            caKeys,
            caKeys.getPrivate(),
            1,
            extension(BASIC_CONSTRAINTS, true, seq(tlv(0x01, new byte[] {(byte) 0xff}))));
    X509Certificate serving =
        certificate(
            "caldera-training-ca",
            "caldera-training-apiserver",
            serverKeys,
            caKeys.getPrivate(),
            2,
            // subjectAltName: iPAddress 127.0.0.1 ([7] implicit); extendedKeyUsage: serverAuth
            extension(SUBJECT_ALT_NAME, false, seq(tlv(0x87, new byte[] {127, 0, 0, 1}))),
            extension(EXTENDED_KEY_USAGE, false, seq(oid(1, 3, 6, 1, 5, 5, 7, 3, 1))));
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try {
      keys.load(null, null);
    } catch (java.io.IOException e) {
      throw new GeneralSecurityException(e);
    }
    keys.setKeyEntry(
        "apiserver", serverKeys.getPrivate(), PASSWORD, new X509Certificate[] {serving, ca});
    KeyManagerFactory managers =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    managers.init(keys, PASSWORD);
    // Trusting the authority for client certificates too: a server that asks for one
    // (wantClientAuth)
    // names it in its request, as kube-apiserver names its client authority.
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    try {
      trusted.load(null, null);
    } catch (java.io.IOException e) {
      throw new GeneralSecurityException(e);
    }
    trusted.setCertificateEntry("ca", ca);
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(managers.getKeyManagers(), trust.getTrustManagers(), null);
    return new TrainingTls(ca, context);
  }

  /** The server side: the serving certificate and its chain. */
  SSLContext serverContext() {
    return server;
  }

  /**
   * The server's TLS parameters: a client certificate asked for, not required, as kube-apiserver
   * asks (the kubeconfig's token then authenticates).
   */
  SSLParameters serverParameters() {
    SSLParameters parameters = server.getDefaultSSLParameters();
    parameters.setWantClientAuth(true);
    return parameters;
  }

  /** The authority's certificate, as a kubeconfig's {@code certificate-authority-data} holds it. */
  String certificateAuthorityData() {
    try {
      String pem =
          "-----BEGIN CERTIFICATE-----\n"
              + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(ca.getEncoded())
              + "\n-----END CERTIFICATE-----\n";
      return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    } catch (java.security.cert.CertificateEncodingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The authority's certificate. */
  X509Certificate certificateAuthority() {
    return ca;
  }

  private static final byte[] SHA256_WITH_RSA =
      seq(oid(1, 2, 840, 113549, 1, 1, 11), new byte[] {0x05, 0x00});
  private static final byte[] BASIC_CONSTRAINTS = oid(2, 5, 29, 19);
  private static final byte[] SUBJECT_ALT_NAME = oid(2, 5, 29, 17);
  private static final byte[] EXTENDED_KEY_USAGE = oid(2, 5, 29, 37);
  private static final byte[] COMMON_NAME = oid(2, 5, 4, 3);

  private static X509Certificate certificate(
      String issuer,
      String subject,
      KeyPair subjectKeys,
      PrivateKey issuerKey,
      int serial,
      byte[]... extensions)
      throws GeneralSecurityException {
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC).withNano(0);
    byte[] tbs =
        seq(
            tlv(0xa0, tlv(0x02, BigInteger.TWO.toByteArray())), // version 3
            tlv(0x02, BigInteger.valueOf(serial).toByteArray()),
            SHA256_WITH_RSA,
            name(issuer),
            seq(
                tlv(0x17, UTC_TIME.format(now.minusDays(1)).getBytes(StandardCharsets.US_ASCII)),
                tlv(0x17, UTC_TIME.format(now.plusDays(2)).getBytes(StandardCharsets.US_ASCII))),
            name(subject),
            subjectKeys.getPublic().getEncoded(),
            tlv(0xa3, seq(extensions)));
    Signature signer = Signature.getInstance("SHA256withRSA");
    signer.initSign(issuerKey);
    signer.update(tbs);
    byte[] signature = signer.sign();
    byte[] bits = new byte[signature.length + 1]; // no unused bits
    System.arraycopy(signature, 0, bits, 1, signature.length);
    byte[] der = seq(tbs, SHA256_WITH_RSA, tlv(0x03, bits));
    return (X509Certificate)
        CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
  }

  private static byte[] name(String commonName) {
    return seq(tlv(0x31, seq(COMMON_NAME, tlv(0x0c, commonName.getBytes(StandardCharsets.UTF_8)))));
  }

  private static byte[] extension(byte[] oid, boolean critical, byte[] value) {
    return critical
        ? seq(oid, tlv(0x01, new byte[] {(byte) 0xff}), tlv(0x04, value))
        : seq(oid, tlv(0x04, value));
  }

  private static byte[] oid(int... arcs) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(arcs[0] * 40 + arcs[1]);
    for (int i = 2; i < arcs.length; i++) {
      int arc = arcs[i];
      int shift = 28;
      while (shift > 0 && (arc >>> shift) == 0) {
        shift -= 7;
      }
      for (; shift > 0; shift -= 7) {
        out.write(0x80 | ((arc >>> shift) & 0x7f));
      }
      out.write(arc & 0x7f);
    }
    return tlv(0x06, out.toByteArray());
  }

  private static byte[] seq(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return tlv(0x30, out.toByteArray());
  }

  private static byte[] tlv(int tag, byte[] value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int length = value.length;
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = length > 0xffff ? 3 : length > 0xff ? 2 : 1;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(length >>> (8 * i));
      }
    }
    out.writeBytes(value);
    return out.toByteArray();
  }
}
