// Better Auth 1.7 on bun:sqlite, the engine Roster's default store runs on, seeded as Roster's bench
// seeds itself: an organisation, its owner logged in, nine other members. Serves on PORT and prints
// `listening <session cookie> <organization id>` once ready.
import { Database } from "bun:sqlite"
import { betterAuth } from "better-auth"
import { getMigrations } from "better-auth/db/migration"
import { organization } from "better-auth/plugins"

const port = Number(process.env.PORT ?? 3000)
const database = new Database(process.env.BETTER_AUTH_DB ?? ":memory:")
// As Roster opens its file: WAL, every commit on disk before it is answered.
database.exec("PRAGMA journal_mode = WAL")
database.exec("PRAGMA synchronous = FULL")
const baseURL = `http://127.0.0.1:${port}`
const auth = betterAuth({
  baseURL,
  secret: "bench-secret-0123456789abcdef0123456789abcdef",
  database,
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
  plugins: [organization()]
})
await (await getMigrations(auth.options)).runMigrations()

const password = "a bench passphrase"
const signUp = (name: string) =>
  auth.api.signUpEmail({ body: { name, email: `${name}@example.com`, password }, returnHeaders: true })
const owner = await signUp("bench")
const cookie = (owner.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
const headers = new Headers({ cookie })
const org = await auth.api.createOrganization({ body: { name: "Bench", slug: "bench" }, headers })
for (let i = 1; i <= 9; i++) {
  const { response } = await signUp(`member${i}`)
  await auth.api.addMember({
    body: { userId: response.user.id, organizationId: org?.id ?? "", role: "member" }
  })
}
await auth.api.setActiveOrganization({ body: { organizationId: org?.id ?? "" }, headers })

Bun.serve({ port, hostname: "127.0.0.1", fetch: auth.handler })
console.log(`listening ${cookie} ${org?.id}`)
