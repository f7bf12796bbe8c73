import { assert, describe, it } from "@effect/vitest"
import { Exit, Schema } from "effect"
import {
  DomainName,
  domainOfEmail,
  isConsolePath,
  normalizeDomain,
  ProviderUrl,
  returnAllowed
} from "../../core/index.ts"

/** Whether `schema` accepts `value`; the message it refuses it with otherwise. */
const verdict = <A>(schema: Schema.Codec<A, string>, value: string) => {
  const exit = Schema.decodeUnknownExit(schema)(value)
  return Exit.isSuccess(exit) ? true : String(Exit.isFailure(exit) ? exit.cause : "")
}

describe("a provider's URL", () => {
  it("is http or https, without credentials or a fragment", () => {
    for (const url of [
      "https://idp.example/",
      "http://localhost:8080/realms/acme",
      "https://idp.example/x?y=1"
    ]) {
      assert.isTrue(verdict(ProviderUrl, url), url)
    }
    for (const url of [
      "ftp://idp.example/",
      "javascript:alert(1)",
      "https://user@idp.example/",
      "https://user:pw@idp.example/",
      "https://idp.example/#fragment"
    ]) {
      const refused = verdict(ProviderUrl, url)
      assert.isString(refused, url)
      assert.include(refused as string, "Expected an http(s) URL without credentials or a fragment", url)
    }
    assert.include(verdict(ProviderUrl, "not a url") as string, "Expected an http(s) URL")
    assert.notInclude(verdict(ProviderUrl, "not a url") as string, "without credentials")
  })
})

describe("a domain name", () => {
  it("has two labels at least, of letters, digits and inner hyphens, ending in a letter", () => {
    for (const name of [
      "acme.example",
      "a-b.c0.example",
      "ACME.Example",
      "acme.example.",
      "xn--bcher-kva.example",
      "bücher.example",
      "a.bc"
    ]) {
      assert.isTrue(verdict(DomainName, name), name)
    }
    for (const name of [
      "localhost",
      "-acme.example",
      "acme-.example",
      "acme..example",
      "acme.123",
      "acme.example-",
      "acme_corp.example",
      "a.b",
      `${"a".repeat(64)}.example`,
      `${"abcdefghi.".repeat(25)}example`,
      "acme.e",
      " acme.example"
    ]) {
      const refused = verdict(DomainName, name)
      assert.isString(refused, name)
    }
    assert.include(verdict(DomainName, "localhost") as string, "Expected a domain name, like example.com")
    assert.isTrue(verdict(DomainName, `${"a".repeat(63)}.example`))
  })

  it("is compared lower-cased, in ASCII, without its trailing dot", () => {
    assert.strictEqual(normalizeDomain(" ACME.Example. "), "acme.example")
    assert.strictEqual(normalizeDomain("Bücher.example"), "xn--bcher-kva.example")
    assert.strictEqual(normalizeDomain("acme.example"), "acme.example")
    assert.strictEqual(normalizeDomain("a.b.c."), "a.b.c")
    assert.strictEqual(domainOfEmail("Ada@Sub.ACME.example"), "sub.acme.example")
    assert.strictEqual(domainOfEmail("quoted@name@acme.example"), "acme.example")
  })
})

describe("where a sign-in returns", () => {
  it("is a path of the console, never another host", () => {
    for (const path of ["/console", "/console/", "/console/members", "/console?tab=1", "/console#x"]) {
      assert.isTrue(isConsolePath(path), path)
    }
    for (const path of [
      "/consoles",
      "/api/console/",
      "https://evil.example/console/",
      "/console//evil.example",
      "/console/\\evil",
      "console/"
    ]) {
      assert.isFalse(isConsolePath(path), path)
    }
  })

  it("is else a URL under an allowed one: the same, or below its path, never a longer host name", () => {
    const allowed = ["https://app.example.com/sso/", "https://other.example"]
    for (const url of [
      "https://app.example.com/sso",
      "https://app.example.com/sso/done",
      "https://app.example.com/sso?x=1",
      "https://app.example.com/sso#x",
      "https://other.example",
      "https://other.example/any",
      "/console/"
    ]) {
      assert.isTrue(returnAllowed(url, allowed), url)
    }
    for (const url of [
      "https://app.example.com/ssox",
      "https://app.example.com/",
      "https://other.example.evil.example/",
      "https://other.exampleevil/",
      "https://app.example.com/sso/ done",
      "https://app.example.com/sso/\ndone",
      "https://app.example.com/sso/\u007f",
      "https://evil.example/"
    ]) {
      assert.isFalse(returnAllowed(url, allowed), url)
    }
    assert.isFalse(returnAllowed("https://app.example.com/sso", []))
    assert.isTrue(
      returnAllowed("https://app.example.com/sso/done", ["https://app.example.com/sso//"]),
      "every trailing slash"
    )
    assert.isFalse(returnAllowed("/console/ x", allowed), "a space, even in the console's path")
    assert.isTrue(
      returnAllowed("https://app.example.com/sso/~ok", allowed),
      "what follows a space in the table stays"
    )
  })
})
