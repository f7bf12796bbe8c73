import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"

/** A page's modules: its fences marked ```ts mount=NAME (or js), by name, as written. */
export const pageModules = (page: string): ReadonlyMap<string, string> =>
  new Map(
    [...readFileSync(page, "utf8").matchAll(/```(?:ts|js) mount=(\S+)\n([\s\S]*?)```/gu)].map(
      ([, name, content]) => [name ?? "", content ?? ""] as const
    )
  )

/** Every fence of a page with its info string (`ts mount=express.ts`, `sh`), in order. */
export const pageFences = (page: string): ReadonlyArray<string> =>
  [...readFileSync(page, "utf8").matchAll(/^```(.*)$/gmu)]
    .map(([, info]) => info ?? "")
    .filter((_, index) => index % 2 === 0)

/**
 * Where each entry of the package (`roster-service/adapters/http`) is in this checkout: its built
 * file's path in the sources (`./dist/adapters/http/index.js` is `adapters/http/index.ts`).
 */
const entries = Object.entries(
  JSON.parse(readFileSync("package.json", "utf8")).exports as Record<string, string | { default: string }>
).flatMap(([key, target]) =>
  typeof target === "string"
    ? []
    : [
        [
          `roster-service/${key.slice(2)}`,
          resolve(target.default.replace(/^\.\/dist\//u, "").replace(/\.js$/u, ".ts"))
        ]
      ]
)

/** A module as the page writes it, its imports of the package pointed at this checkout's sources. */
const pointedAtCheckout = (content: string) =>
  entries.reduce((text, [entry, path]) => text.replaceAll(`"${entry}"`, JSON.stringify(path)), content)

/**
 * Writes the page's modules, and `extra` (what the application around them holds), into a folder
 * of the checkout (git-ignored, so that their imports of installed packages resolve), answering it.
 */
export const writePageModules = (
  modules: ReadonlyMap<string, string>,
  extra: Record<string, string> = {}
) => {
  mkdirSync("reports", { recursive: true })
  const folder = resolve(mkdtempSync(join("reports", "page-modules-")))
  for (const [name, content] of [...modules, ...Object.entries(extra)])
    writeFileSync(join(folder, name), pointedAtCheckout(content))
  return folder
}
