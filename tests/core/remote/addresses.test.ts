import { describe, expect, it } from "vitest";
import { addressKind } from "../../../src/core/remote/addresses.js";

describe("address kinds (SSRF)", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["169.254.169.254", "metadata"],
    ["169.254.1.1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fd12:3456::1", "private"],
    ["fc00::1", "private"],
    ["fd00:ec2::254", "metadata"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:10.0.0.1", "private"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b::8.8.8.8", "public"],
    ["2001:db8::1", "reserved"],
    ["ff02::1", "reserved"],
    ["2606:4700:4700::1111", "public"],
    ["1:2:3:4:5:6:7:8", "public"],
  ])("%s is %s", (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it.each([["example.com"], ["1.2.3"], ["256.1.1.1"], ["1::2::3"], ["1:2:3:4:5:6:7:8:9"], ["12345::"], [""]])(
    "%j is not an address",
    (text) => {
      expect(addressKind(text)).toBe("not-an-address");
    },
  );
});
