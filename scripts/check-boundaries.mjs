// Dependencies point inward: core imports only `effect` and itself; adapters never import app.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const root = resolve(import.meta.dirname, "..")
const importPattern =
  /(?:^|[\s;])(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm

const sourceFiles = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx|mts|js|mjs)$/.test(name) ? [path] : []
  })

const layerOf = (path) => relative(root, path).split(/[\\/]/)[0]

const rules = {
  core: (specifier, target) =>
    target === undefined
      ? specifier === "effect" || specifier.startsWith("effect/")
      : layerOf(target) === "core",
  adapters: (_specifier, target) => target === undefined || layerOf(target) !== "app"
}

// The verifier a product embeds (`roster-service/verify`) is small: jose and itself, no Effect.
const verifier = join(root, "adapters", "verify")
const insideVerifier = (path) => !relative(verifier, path).startsWith("..")

// The core's floors, lowest first: a file imports its own floor or one below, and a use case no other
// use case. What use cases share (starting a session, counting an attempt, the second factor owed)
// is a step in core/steps/ or a rule in core/policy/ that they name.
const floors = ["model", "ports", "policy", "steps", "use-cases"]
const floorOf = (path) => {
  const [layer, floor] = relative(root, path).split(/[\\/]/)
  return layer === "core" ? floors.indexOf(floor) : -1
}
const useCases = floors.indexOf("use-cases")
const floorBroken = (file, target) => {
  const from = floorOf(file)
  const to = floorOf(target)
  if (from === -1 || to === -1) return undefined
  if (to > from) return `runs back up from core/${floors[from]} to core/${floors[to]}`
  if (to === useCases)
    return "is a use case calling a use case: share the step through core/steps or core/policy"
  return undefined
}

const consistency = join(root, "adapters", "mongodb", "consistency")
const insideConsistency = (path) => !relative(consistency, path).startsWith("..")

const violations = []
for (const [layer, allowed] of Object.entries(rules)) {
  for (const file of sourceFiles(join(root, layer))) {
    for (const match of readFileSync(file, "utf8").matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? match[3]
      const target = specifier.startsWith(".") ? resolve(dirname(file), specifier) : undefined
      if (!allowed(specifier, target)) violations.push(`${relative(root, file)} imports "${specifier}"`)
      if (insideVerifier(file) && (target === undefined ? specifier !== "jose" : !insideVerifier(target)))
        violations.push(
          `${relative(root, file)} imports "${specifier}": the verifier imports jose and itself only`
        )
      const broken = target === undefined ? undefined : floorBroken(file, target)
      if (broken !== undefined)
        violations.push(`${relative(root, file)} imports "${specifier}": it ${broken}`)
      // HTTP mounts SCIM (a web handler it hands requests to); SCIM knows nothing of HTTP.
      if (
        target !== undefined &&
        relative(root, file).startsWith(join("adapters", "scim")) &&
        relative(root, target).startsWith(join("adapters", "http"))
      )
        violations.push(
          `${relative(root, file)} imports "${specifier}": SCIM is mounted by HTTP, never the other way`
        )
      // MongoDB's consistency protocol is reached through its facade only.
      if (
        target !== undefined &&
        insideConsistency(target) &&
        !insideConsistency(file) &&
        target !== join(consistency, "index.ts")
      )
        violations.push(
          `${relative(root, file)} imports "${specifier}", inside MongoDB's consistency protocol`
        )
    }
  }
}

// The core is runtime-neutral: no ambient I/O, clocks or randomness outside Effect's services.
const runtimeApis =
  /\b(?:process|Bun|Deno|require|fetch|setTimeout|setInterval)\b\s*[.(]|\bDate\.now\b|\bMath\.random\b|\bnew Date\(/
for (const file of sourceFiles(join(root, "core"))) {
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, index) => {
      const isComment = /^\s*(?:\/\/|\/\*|\*)/.test(line)
      if (!isComment && runtimeApis.test(line))
        violations.push(`${relative(root, file)}:${index + 1} uses a runtime API: ${line.trim()}`)
    })
}

if (violations.length > 0) {
  console.error(
    `Dependency rule broken (core may import only effect and itself, each floor its own or one below and no use case another, and use no runtime API; adapters never import app; the verifier imports jose alone; SCIM never imports HTTP; MongoDB's consistency protocol only through its index.ts):\n  ${violations.join("\n  ")}`
  )
  process.exit(1)
}
console.log(
  "Dependency boundaries hold: core imports only effect and itself, no floor runs back up, no use case calls another."
)
