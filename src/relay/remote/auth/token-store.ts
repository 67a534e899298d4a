/**
 * OAuth state kept between runs for one remote server: the client registration and the tokens,
 * each keyed by the authorization server's issuer (a registration or a token from one issuer is
 * never offered to another; a server that moves to another issuer starts afresh). One file per
 * server under `$EFFECTGATE_HOME/oauth/`, owner-only (0600 in a 0700 folder, an owner-only DACL
 * on Windows), replaced whole on every change so that a crash leaves the old file or the new
 * one. Nothing in it is ever logged or printed.
 */
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { join } from "node:path";
import { checkOwnDir, createPrivateFile, ensurePrivateDir } from "../../../platform/secure-file.js";

export interface IssuerState {
  client?: Record<string, unknown>;
  tokens?: Record<string, unknown>;
  /**
   * The registration the tokens were issued to. A refresh must go with it, whatever redirect
   * the process now listens on; `client` may be a newer registration made for another port.
   */
  tokenClient?: Record<string, unknown>;
}

interface FileShape {
  version: 1;
  /** The server the state belongs to (its URL as the pin identity spells it). */
  server: string;
  /** The issuer whose tokens were saved last: the one the transport's per-request read uses. */
  last?: string;
  issuers: Record<string, IssuerState>;
}

export interface TokenStoreOptions {
  dir: string;
  server: string;
  /** A line for the human when the folder cannot be trusted or a write fails. */
  warn: (line: string) => void;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export class TokenStore {
  private state: FileShape;
  private readonly file: string;
  /** Whether the folder is ours alone; otherwise state lives in memory for this run only. */
  private usable: boolean;

  constructor(private readonly o: TokenStoreOptions) {
    const name = createHash("sha256").update(o.server).digest("hex").slice(0, 32);
    this.file = join(o.dir, `${name}.json`);
    this.usable = this.trustFolder();
    this.state = this.usable ? this.read() : { version: 1, server: o.server, issuers: {} };
  }

  /** Reads the file again: another process signed in and saved its tokens (sign-in-lock.ts). */
  reload(): void {
    if (this.usable) this.state = this.read();
  }

  /** Where the state is kept (tests check its mode). */
  get path(): string {
    return this.file;
  }

  private trustFolder(): boolean {
    try {
      let t = checkOwnDir(this.o.dir);
      if (t.state === "absent") {
        ensurePrivateDir(this.o.dir);
        t = checkOwnDir(this.o.dir);
      }
      if (t.state === "untrusted") {
        this.o.warn(
          `OAuth folder ${this.o.dir} is ${t.why}; expected a folder only you can use (0700): tokens are kept in memory for this run only`,
        );
        return false;
      }
      return t.state !== "absent";
    } catch (err) {
      this.o.warn(
        `OAuth folder ${this.o.dir} cannot be made (${(err as Error).message}): tokens are kept in memory for this run only`,
      );
      return false;
    }
  }

  private read(): FileShape {
    const empty: FileShape = { version: 1, server: this.o.server, issuers: {} };
    let text: string;
    try {
      const st = fs.lstatSync(this.file);
      const me = typeof process.getuid === "function" ? process.getuid() : st.uid;
      // Only a regular file of ours is read: a link or another user's file could feed us tokens.
      if (!st.isFile() || st.uid !== me) {
        this.o.warn(`OAuth state ${this.file} is not a file of yours; it is ignored and will be replaced`);
        return empty;
      }
      text = fs.readFileSync(this.file, "utf8");
    } catch {
      return empty;
    }
    try {
      const v = JSON.parse(text) as unknown;
      if (!isObj(v) || v["version"] !== 1 || v["server"] !== this.o.server || !isObj(v["issuers"]))
        return empty;
      return v as unknown as FileShape;
    } catch {
      this.o.warn(`OAuth state ${this.file} is not readable JSON; it is ignored and will be replaced`);
      return empty;
    }
  }

  private write(): void {
    if (!this.usable) return;
    const tmp = `${this.file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      const fd = createPrivateFile(tmp);
      try {
        fs.writeSync(fd, `${JSON.stringify(this.state)}\n`);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, this.file);
    } catch (err) {
      try {
        fs.unlinkSync(tmp);
      } catch {
        /* never made */
      }
      this.o.warn(
        `could not save OAuth state to ${this.file} (${(err as Error).message}); it holds for this run only`,
      );
    }
  }

  private issuer(issuer: string): IssuerState {
    const have = this.state.issuers[issuer];
    if (have) return have;
    const made: IssuerState = {};
    this.state.issuers[issuer] = made;
    return made;
  }

  client(issuer: string | undefined): Record<string, unknown> | undefined {
    const key = issuer ?? this.state.last;
    return key === undefined ? undefined : this.state.issuers[key]?.client;
  }

  saveClient(issuer: string | undefined, client: Record<string, unknown>): void {
    const key =
      issuer ?? (typeof client["issuer"] === "string" ? client["issuer"] : undefined) ?? this.state.last;
    if (key === undefined) return;
    this.issuer(key).client = client;
    this.write();
  }

  /** Tokens for that issuer; with none named, the last saved (the per-request read). */
  tokens(issuer: string | undefined): Record<string, unknown> | undefined {
    const key = issuer ?? this.state.last;
    return key === undefined ? undefined : this.state.issuers[key]?.tokens;
  }

  /** The registration that issuer's tokens belong to (for files from before it was kept: the stored one). */
  tokenClient(issuer: string | undefined): Record<string, unknown> | undefined {
    const key = issuer ?? this.state.last;
    const s = key === undefined ? undefined : this.state.issuers[key];
    return s?.tokens === undefined ? undefined : (s.tokenClient ?? s.client);
  }

  /** Saves the tokens and, when known, the registration they were issued to. */
  saveTokens(
    issuer: string | undefined,
    tokens: Record<string, unknown>,
    client?: Record<string, unknown>,
  ): void {
    const key = issuer ?? (typeof tokens["issuer"] === "string" ? tokens["issuer"] : undefined) ?? "";
    const s = this.issuer(key);
    s.tokens = tokens;
    if (client !== undefined) s.tokenClient = client;
    this.state.last = key;
    this.write();
  }

  /** What the server said is no longer valid. */
  forget(what: "all" | "client" | "tokens"): void {
    if (what === "all") this.state.issuers = {};
    else
      for (const s of Object.values(this.state.issuers)) {
        // Tokens go with the registration they were issued to: either going takes the binding.
        if (what === "client") delete s.client;
        else delete s.tokens;
        delete s.tokenClient;
      }
    this.write();
  }
}
