import { Logger } from "effect"
import { jsonLineLogger } from "../adapters/log/json-line.ts"
import { makeLogWriter } from "./log-writer.ts"

export const logWriter = makeLogWriter((chunk) => process.stdout.write(chunk))

export const writeLine = logWriter.line

/** What the service logs (a store's start, a use case's warning) as the same JSON lines. */
export const jsonLogger = Logger.layer([jsonLineLogger(writeLine)])
