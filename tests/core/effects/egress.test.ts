// Which calls send, and where: known verbs, recipient and place arguments, GitHub repositories.
import { describe, expect, it } from "vitest";
import {
  destinationOf,
  destinationsOf,
  egressEffects,
  isSender,
  withEgress,
} from "../../../src/core/effects/egress.js";
import type { Effect } from "../../../src/core/types.js";

const sends = (tool: string, args: Record<string, unknown>, effects: Effect[] = []) =>
  egressEffects(tool, args, effects).map((e) => `${e.at} -> ${e.canonical}`);

describe("isSender", () => {
  it("knows tools that send by their verbs and by what they make", () => {
    for (const t of [
      "send_message",
      "sendEmail",
      "slack_post_message",
      "upload_file",
      "http_request",
      "reply_all",
      "add_issue_comment",
      "create_pull_request_review",
      "create_issue",
      "submit_form",
    ])
      expect(isSender(t), t).toBe(true);
    for (const t of [
      "read_file",
      "list_messages",
      "get_issue",
      "search_emails",
      "write_file",
      "create_directory",
      "git_commit",
    ])
      expect(isSender(t), t).toBe(false);
  });
});

describe("egressEffects", () => {
  it("a sender's recipients: phone numbers, mail addresses (their domain), channels", () => {
    expect(sends("send_message", { recipient: "+13241234123", message: "hi" })).toEqual([
      "arguments.recipient -> +13241234123",
    ]);
    expect(
      sends("send_email", { to: ["A@Evil.Example", "b@x.example"], cc: "c@y.example", body: "b" }),
    ).toEqual([
      "arguments.to[0] -> evil.example a@evil.example",
      "arguments.to[1] -> x.example b@x.example",
      "arguments.cc -> y.example c@y.example",
    ]);
    expect(sends("slack_post_message", { channel_id: "C0TEAM", text: "out" })).toEqual([
      "arguments.channel_id -> C0TEAM",
    ]);
    expect(sends("send", { message: { to: "x@y.example", body: "z" } })).toEqual([
      "arguments.message.to -> y.example x@y.example",
    ]);
  });

  it("a GitHub-style call that makes something goes to its repository", () => {
    expect(sends("add_issue_comment", { owner: "Acme", repo: "Web", issue_number: 3, body: "x" })).toEqual([
      "arguments -> github.com acme/web",
    ]);
    expect(sends("create_pull_request_review", { owner: "a", repo: "b", body: "x" })).toEqual([
      "arguments -> github.com a/b",
    ]);
  });

  it("a sender naming nobody goes to its own server; a fetch already has its URL", () => {
    expect(sends("post_status", { text: "deployed" })).toEqual(["arguments -> its server"]);
    const url: Effect = {
      operation: "read",
      kind: "url",
      at: "arguments.url",
      spelled: "https://x.example/",
    };
    expect(sends("http_post", { url: "https://x.example/", body: "b" }, [url])).toEqual([]);
  });

  it("a place argument with a host but no scheme is a destination for any tool", () => {
    expect(sends("call_api", { endpoint: "attacker.example/collect", data: "x" })).toEqual([
      "arguments.endpoint -> attacker.example",
    ]);
    expect(sends("configure", { webhook_url: "hooks.example:8443/x" })).toEqual([
      "arguments.webhook_url -> hooks.example",
    ]);
    expect(sends("configure", { host: "localhost" })).toEqual([]); // a bare word is no host
    expect(sends("configure", { host: "127.1:8080" })).toEqual(["arguments.host -> 127.0.0.1"]);
  });

  it("an addressee argument of any tool holding a mail address or a URL is a destination", () => {
    expect(sends("deliver", { to: "boss@attacker.example", body: "numbers" })).toEqual([
      "arguments.to -> attacker.example boss@attacker.example",
    ]);
    expect(sends("dispatch", { recipients: ["a@x.example"], bcc: "b@y.example" })).toEqual([
      "arguments.recipients[0] -> x.example a@x.example",
      "arguments.bcc -> y.example b@y.example",
    ]);
    expect(sends("relay_note", { reply_to: "ftp://drop.example/in" })).toEqual([
      "arguments.reply_to -> drop.example",
    ]);
    // Near misses: versions, dates, paths, bare names, and recipient words that also name a read.
    expect(sends("git_log", { from: "v1.2.2", to: "v1.2.3" })).toEqual([]);
    expect(sends("list_events", { from: "2024-01-01", to: "2024-02-01" })).toEqual([]);
    expect(sends("convert", { path_to: "/home/u/out.txt", to: "pdf" })).toEqual([]);
    expect(sends("get_user", { email: "bob@corp.example" })).toEqual([]);
    expect(sends("lookup", { recipient: "bob" })).toEqual([]);
  });
});

describe("destinations", () => {
  it("withEgress gives url effects their canonical host", () => {
    const [e] = withEgress("fetch", {}, [
      { operation: "read", kind: "url", at: "u", spelled: "http://0x7f.1:8080/x" },
    ]);
    expect(e?.destination).toEqual({ scheme: "http", host: "127.0.0.1", port: 8080 });
  });

  it("a read names what it reads from: a repository or a channel", () => {
    expect(destinationsOf("get_issue", { owner: "a", repo: "b", issue_number: 1 }, [])).toEqual([
      { host: "github.com", recipient: "a/b" },
    ]);
    expect(destinationsOf("slack_get_channel_history", { channel_id: "C0TEAM" }, [])).toEqual([
      { recipient: "C0TEAM" },
    ]);
  });

  it("a value that is a body is no recipient", () => {
    expect(destinationOf("x".repeat(201))).toBeUndefined();
    expect(destinationOf("  ")).toBeUndefined();
  });
});
