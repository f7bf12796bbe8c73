import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { basename } from "node:path"
import { brotliCompressSync, gzipSync } from "node:zlib"

/**
 * Bundles the console (Preact, through Bun's bundler) into `dist/console`: its page, and its script
 * and styles named by their digests so that Roster serves them with a year's caching, each beside
 * its gzip and brotli copies.
 */
const out = "dist/console"
/** DESIGN §1j: the console ships at most this much JavaScript, gzipped. */
const maxGzippedScript = 150 * 1024

rmSync(out, { recursive: true, force: true })
mkdirSync(`${out}/assets`, { recursive: true })
const built = await Bun.build({
  entrypoints: ["console/src/main.tsx"],
  outdir: `${out}/assets`,
  target: "browser",
  minify: true,
  naming: "[name]-[hash].[ext]",
  define: { "process.env.NODE_ENV": '"production"' }
})
if (!built.success) {
  for (const message of built.logs) console.error(message)
  process.exit(1)
}
const named = (kind: string) => {
  const output = built.outputs.find((artifact) => artifact.path.endsWith(kind))
  if (output === undefined) throw new Error(`The console's build wrote no ${kind} file`)
  return output
}
const script = named(".js")
const styles = named(".css")
/** Writes the gzip and brotli copies Roster serves, so that it compresses nothing at start. */
const compress = (file: string) => {
  const plain = readFileSync(file)
  const gzip = gzipSync(plain, { level: 9 })
  writeFileSync(`${file}.gz`, gzip)
  writeFileSync(`${file}.br`, brotliCompressSync(plain))
  return gzip.length
}
const gzipped = compress(script.path)
if (gzipped > maxGzippedScript) {
  console.error(`The console's script is ${gzipped} bytes gzipped, above the ${maxGzippedScript} allowed`)
  process.exit(1)
}
const icon = readFileSync("console/favicon.svg")
const iconName = `favicon-${createHash("sha256").update(icon).digest("hex").slice(0, 8)}.svg`
writeFileSync(`${out}/assets/${iconName}`, icon)
const page = readFileSync("console/index.html", "utf8")
  .replace("{{icon}}", iconName)
  .replace("{{script}}", basename(script.path))
  .replace("{{styles}}", basename(styles.path))
writeFileSync(`${out}/index.html`, page)
for (const file of [styles.path, `${out}/assets/${iconName}`, `${out}/index.html`]) compress(file)
// Quiet on success: npm pack --json runs this (the prepare script) and reads standard output.
process.stderr.write(`console: ${out}, script ${(gzipped / 1024).toFixed(1)} KB gzipped\n`)
