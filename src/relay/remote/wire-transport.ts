/**
 * What the bridge needs of an SDK client transport (StreamableHTTPClientTransport,
 * SSEClientTransport, built in transports.ts), and of the OAuth provider that waits for a sign-in.
 */

export type Msg = Record<string, unknown>;

export interface WireTransport {
  onmessage?: (message: Msg) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  start(): Promise<void>;
  send(message: Msg | Msg[], options?: WireSendOptions): Promise<void>;
  close(): Promise<void>;
  setProtocolVersion?(version: string): void;
  readonly sessionId?: string | undefined;
  terminateSession?(): Promise<void>;
  finishAuth?(params: URLSearchParams): Promise<void>;
}

export interface WireSendOptions {
  requestSignal?: AbortSignal;
  onRequestStreamEnd?: () => void;
  headers?: Readonly<Record<string, string>>;
}

export type TransportKind = "http" | "sse";

/** Where an authorisation the SDK started (it opened the browser) comes back. */
export interface AuthWait {
  /**
   * The callback's query once the user has authorised, or undefined once another effectgate
   * process signed in and its tokens were read (auth/sign-in-lock.ts); undefined when none was
   * started.
   */
  pending(): Promise<URLSearchParams | undefined> | undefined;
}
