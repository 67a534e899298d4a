/**
 * The `requestState` effectgate hands a 2026-07-28 client with its question (an `input_required`
 * result). The client echoes it on its retry; it is attacker-controlled input (the MRTR page of
 * the spec), so it is sealed with HMAC-SHA-256 under a key only this process knows, and binds
 * the exact effect (the grant hash, effect-key.ts), the call (method, tool and arguments) and an
 * expiry. A state that fails any of these is a no (docs/decisions/0123-asking-in-the-result.md).
 * Single use is the relay's business: it keeps the nonces it issued.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { canonicalHash } from "../json/jcs.js";
import { isRecord } from "../wire/jsonrpc.js";

/** Every state effectgate issues starts with this; a server's own state does not. */
export const STATE_PREFIX = "effectgate.v1.";

export interface StateClaims {
  /** Random, once per question: what the relay marks used. */
  nonce: string;
  /** The effect key (effect-key.ts) of the call asked about. */
  effect: string;
  /** callDigest() of the call asked about. */
  call: string;
  /** Milliseconds since the epoch after which the state is no. */
  expires: number;
}

export type OpenedState = { ok: true; claims: StateClaims } | { ok: false; why: string };

/** What a retry must repeat exactly: the method, the tool's name and its arguments. */
export function callDigest(method: string, params: unknown): string {
  const p = isRecord(params) ? params : {};
  return canonicalHash({ method, name: p["name"] ?? null, arguments: p["arguments"] ?? null });
}

const mac = (secret: Uint8Array, body: string): Buffer =>
  createHmac("sha256", secret).update(STATE_PREFIX).update(body).digest();

export function sealState(secret: Uint8Array, claims: StateClaims): string {
  const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${STATE_PREFIX}${body}.${mac(secret, body).toString("base64url")}`;
}

/** Whether a `requestState` is one effectgate would have issued (sealed or not): never the server's. */
export function isOurState(state: unknown): state is string {
  return typeof state === "string" && state.startsWith(STATE_PREFIX);
}

/** Checks the seal and the expiry; says why not in a few words. */
export function openState(secret: Uint8Array, state: string, now: number): OpenedState {
  const rest = state.slice(STATE_PREFIX.length);
  const dot = rest.indexOf(".");
  if (!state.startsWith(STATE_PREFIX) || dot < 0)
    return { ok: false, why: "the request state is not one effectgate issued" };
  const body = rest.slice(0, dot);
  const given = Buffer.from(rest.slice(dot + 1), "base64url");
  const want = mac(secret, body);
  if (given.length !== want.length || !timingSafeEqual(given, want))
    return { ok: false, why: "the request state was forged or altered" };
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, why: "the request state cannot be read" };
  }
  if (!isClaims(claims)) return { ok: false, why: "the request state cannot be read" };
  if (claims.expires <= now) return { ok: false, why: "the question expired before the answer came" };
  return { ok: true, claims };
}

function isClaims(v: unknown): v is StateClaims {
  return (
    isRecord(v) &&
    typeof v["nonce"] === "string" &&
    typeof v["effect"] === "string" &&
    typeof v["call"] === "string" &&
    typeof v["expires"] === "number"
  );
}
