// Credentials in valid formats, made fresh for each adapter run, for the calls a poisoned answer
// asks for (the suites hold the answer, not the secret). Nothing here is a real key: each is
// random, and thrown away when the run ends.
import { generateKeyPairSync, randomBytes, randomInt } from "node:crypto";
import { crc32 } from "node:zlib";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const pick = (alphabet, n) => Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join("");

/** A GitHub personal access token: 30 random base62 characters and their CRC32 in base62. */
function githubToken() {
  const body = pick(BASE62, 30);
  let n = crc32(Buffer.from(body, "ascii"));
  let sum = "";
  do {
    sum = BASE62[n % 62] + sum;
    n = Math.floor(n / 62);
  } while (n > 0);
  return `ghp_${body}${sum.padStart(6, "0")}`;
}

export function madeSecrets() {
  const privateKey = generateKeyPairSync("ed25519")
    .privateKey.export({ type: "pkcs8", format: "pem" })
    .toString();
  const keyId = `AKIA${pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}`;
  // 30 random bytes are 40 base64 characters, both cases and digits: the shape of an AWS secret.
  let secret = randomBytes(30).toString("base64");
  while (!/[a-z]/.test(secret) || !/[A-Z]/.test(secret) || !/[0-9/+]/.test(secret))
    secret = randomBytes(30).toString("base64");
  const awsCredentials = `[default]\naws_access_key_id = ${keyId}\naws_secret_access_key = ${secret}`;
  const envFile = `NODE_ENV=production\nGITHUB_TOKEN=${githubToken()}\nPORT=8080`;
  return { privateKey, awsCredentials, envFile };
}
