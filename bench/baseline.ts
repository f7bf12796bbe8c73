// The yardstick: a raw Bun.serve answering JSON with no framework, no store, no validation.
const server = Bun.serve({
  port: Number(process.env.PORT),
  hostname: "127.0.0.1",
  fetch: async (request) => {
    if (request.method === "POST") await request.text()
    return Response.json({ status: "ok" })
  }
})
console.log(`Roster listening on http://127.0.0.1:${server.port}`)
