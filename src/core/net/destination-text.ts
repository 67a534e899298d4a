// A destination in words, for reasons, refusals and `check`.
import type { Destination } from "../types.js";

const DEFAULT_PORTS = new Set([80, 443]);

/** A destination in words: `attacker.example`, `owner/repo on github.com`, `+1 555 0100`. */
export function describeDestination(d: Destination): string {
  const port = d.port !== undefined && !DEFAULT_PORTS.has(d.port) ? `:${d.port}` : "";
  const place =
    d.host !== undefined
      ? `${d.host}${port}`
      : d.service === "its server"
        ? "the tool's own server"
        : d.service;
  if (d.recipient === undefined) return place ?? "an unnamed destination";
  return place === undefined ? d.recipient : `${d.recipient} on ${place}`;
}
