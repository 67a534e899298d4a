/**
 * The private key of a machine client that authenticates with a signed JWT (`private_key_jwt`,
 * RFC 7523 §2.2) instead of a secret: read from a file only its owner can read, or from an
 * environment variable, and turned into what the SDK's PrivateKeyJwtProvider signs with. The
 * signing algorithm follows from the key, so the user names no algorithm that could disagree
 * with it. The key's text is never put in an error message.
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import * as fs from "node:fs";
import { UsageError } from "../../../core/errors.js";

export interface ClientKey {
  /** The key as PKCS#8 PEM, whatever form it was given in (the SDK imports PKCS#8 only). */
  pkcs8: string;
  /** The JWS algorithm the key signs with. */
  alg: "RS256" | "ES256" | "ES384" | "ES512";
}

const CURVES: Record<string, ClientKey["alg"]> = {
  prime256v1: "ES256",
  secp384r1: "ES384",
  secp521r1: "ES512",
};

/** The JWS algorithm of a key: RSA signs RS256, an EC key the ES algorithm of its curve. */
function algorithmOf(key: KeyObject, option: string): ClientKey["alg"] {
  const type = key.asymmetricKeyType;
  if (type === "rsa") return "RS256";
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (type === "ec" && curve !== undefined && CURVES[curve]) return CURVES[curve];
  throw new UsageError(
    `${option}: expected an RSA key or an EC key on P-256, P-384 or P-521, got ${type === "ec" ? `an EC key on ${curve ?? "an unnamed curve"}` : `a${type === "ed25519" || type === "ed448" ? "n" : ""} ${type ?? "unknown"} key`}`,
  );
}

function parse(text: string, option: string): ClientKey {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: "pem" });
  } catch {
    throw new UsageError(
      `${option}: expected a PEM private key (PKCS#8 "BEGIN PRIVATE KEY", or "BEGIN RSA/EC PRIVATE KEY"), got text that is not one`,
    );
  }
  const alg = algorithmOf(key, option);
  return { pkcs8: key.export({ format: "pem", type: "pkcs8" }).toString(), alg };
}

/**
 * Reads the key file. Like ssh, a key that others can read is refused: it is no longer this
 * user's secret. The mode is checked on the opened file, so it cannot be swapped in between.
 */
function readKeyFile(path: string, platform: NodeJS.Platform): string {
  const option = "--oauth-client-key-file";
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY);
  } catch (err) {
    throw new UsageError(
      `${option}: expected a readable key file, got ${JSON.stringify(path)} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile())
      throw new UsageError(`${option}: expected a file, got ${JSON.stringify(path)}, which is not one`);
    if (platform !== "win32") {
      const me = typeof process.getuid === "function" ? process.getuid() : st.uid;
      if (st.uid !== me)
        throw new UsageError(`${option}: expected a key file of yours, got one owned by uid ${st.uid}`);
      if ((st.mode & 0o077) !== 0) {
        const mode = (st.mode & 0o777).toString(8).padStart(4, "0");
        throw new UsageError(
          `${option}: expected a key file only you can read (0600 or 0400), got mode ${mode}: run chmod 600 ${JSON.stringify(path)}`,
        );
      }
    }
    return fs.readFileSync(fd, "utf8");
  } finally {
    fs.closeSync(fd);
  }
}

/** The client's key from `--oauth-client-key-file` or `--oauth-client-key-env`. */
export function loadClientKey(
  from: { file: string } | { envVar: string },
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): ClientKey {
  if ("file" in from) return parse(readKeyFile(from.file, platform), "--oauth-client-key-file");
  const text = env[from.envVar];
  if (text === undefined || text.trim() === "")
    throw new UsageError(
      `--oauth-client-key-env: expected the environment variable ${from.envVar} to hold the client's PEM private key, got nothing`,
    );
  return parse(text, "--oauth-client-key-env");
}
