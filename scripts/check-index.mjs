// A package's public face is checked against its files: core/index.ts exports each file of the core
// that any other layer uses, in order, once; a file it does not export is used inside the core alone.
// adapters/resources/declared.ts lists every resource that is a declaration.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const root = resolve(import.meta.dirname, "..")
const sourceFiles = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : sourceFiles(path)
    return /\.(ts|tsx|mts|mjs)$/.test(name) ? [path] : []
  })
const importPattern = /(?:import|export)\s[^;]*?from\s*["']([^"']+)["']/gm
const importsOf = (file) =>
  [...readFileSync(file, "utf8").matchAll(importPattern)]
    .map((match) => match[1])
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => resolve(dirname(file), specifier))

const problems = []
const core = join(root, "core")
const index = join(core, "index.ts")
const exported = importsOf(index)
// Ordered as the formatter orders them: by path without the extension, so account.ts precedes account-token.ts.
const sortKey = (file) => relative(core, file).replace(/\.[mc]?tsx?$/, "")
const sorted = [...exported].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1))
if (exported.join() !== sorted.join())
  problems.push("core/index.ts: its exports are not in the order of their paths")
if (new Set(exported).size !== exported.length) problems.push("core/index.ts: a file is exported twice")

const usedOutside = new Set(
  ["adapters", "app", "console", "bench"].flatMap((layer) =>
    sourceFiles(join(root, layer)).flatMap(importsOf)
  )
)
const usedInside = new Set(
  sourceFiles(core)
    .filter((file) => file !== index)
    .flatMap(importsOf)
)
for (const file of sourceFiles(core)) {
  if (file === index) continue
  const name = relative(root, file)
  if (exported.includes(file)) continue
  if (usedOutside.has(file))
    problems.push(`${name} is imported from outside the core but not exported by core/index.ts`)
  else if (!usedInside.has(file))
    problems.push(`${name} is neither exported by core/index.ts nor used in the core`)
}
for (const file of exported) {
  if (!statSync(file, { throwIfNoEntry: false }))
    problems.push(`core/index.ts exports ${relative(root, file)}, which is not there`)
}

// Every resource declared with `resource(…)` is in the list the kits open and the migrations read.
const resources = join(root, "adapters", "resources")
const listed = readFileSync(join(resources, "declared.ts"), "utf8")
for (const file of sourceFiles(resources)) {
  for (const [, name] of readFileSync(file, "utf8").matchAll(/export const (\w+) = resource\(/g)) {
    if (!new RegExp(`^\\s+${name},?$`, "m").test(listed)) {
      problems.push(
        `${relative(root, file)} declares ${name}, which adapters/resources/declared.ts does not list`
      )
    }
  }
}

if (problems.length > 0) {
  console.error(`Public faces out of step with their files:\n  ${problems.join("\n  ")}`)
  process.exit(1)
}
console.log(
  `core/index.ts exports what leaves the core (${exported.length} files); every declared resource is listed.`
)
