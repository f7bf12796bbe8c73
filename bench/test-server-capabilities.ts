import { MongoClient } from "mongodb"
import { startFerretDb } from "./servers.ts"

/**
 * Asks the tests' MongoDB-compatible server for each way MongoDB has to read or write more than
 * one collection in one command (or to group commands atomically), and prints what it answers.
 * Every MongoDB-side round-trip count in `docs/benchmarks.md` assumes these are absent: when this
 * prints "supported" for one, that write can be done in fewer commands and tested here.
 */
const ferret = await startFerretDb()
const client = await MongoClient.connect(ferret.uri)
const db = client.db("capabilities")
const a = db.collection<{ _id: number; k: number }>("a")
await a.insertOne({ _id: 1, k: 1 })
await db.collection<{ _id: number; k: number }>("b").insertOne({ _id: 1, k: 1 })

const probes: Record<string, () => Promise<unknown>> = {
  "$lookup (join in a read)": () =>
    a.aggregate([{ $lookup: { from: "b", localField: "k", foreignField: "k", as: "j" } }]).toArray(),
  "$unionWith (two collections in a read)": () => a.aggregate([{ $unionWith: "b" }]).toArray(),
  "$merge (a read written into another collection)": () =>
    a
      .aggregate([{ $merge: { into: "b", on: "_id", whenMatched: "merge", whenNotMatched: "discard" } }])
      .toArray(),
  "update with a pipeline": () => a.updateOne({ _id: 1 }, [{ $set: { k: { $add: ["$k", 1] } } }]),
  "multi-document transaction": async () => {
    const session = client.startSession()
    try {
      await session.withTransaction(() => a.updateOne({ _id: 1 }, { $set: { k: 2 } }, { session }))
    } finally {
      await session.endSession()
    }
  },
  "bulkWrite over collections (MongoDB 8)": () =>
    client.bulkWrite([
      { name: "insertOne", namespace: "capabilities.a", document: { k: 2 } },
      { name: "insertOne", namespace: "capabilities.b", document: { k: 2 } }
    ])
}

try {
  for (const [name, probe] of Object.entries(probes)) {
    const outcome = await probe().then(
      () => "supported",
      (error: { message?: string; cause?: { message?: string } }) =>
        `not supported: ${error.cause?.message ?? error.message ?? String(error)}`
    )
    console.log(`${name}: ${outcome}`)
  }
} finally {
  await client.close()
  await ferret.stop()
}
