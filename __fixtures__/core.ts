import { jest } from '@jest/globals'
import type * as core from '@actions/core'

/** Inputs the mocked `getInput` answers with; tests fill it per case. */
export const inputs: Record<string, string> = {}

export const getInput = jest.fn<typeof core.getInput>((name) => inputs[name] ?? '')
export const setSecret = jest.fn<typeof core.setSecret>()
export const setOutput = jest.fn<typeof core.setOutput>()
export const info = jest.fn<typeof core.info>()
export const debug = jest.fn<typeof core.debug>()
export const warning = jest.fn<typeof core.warning>()
export const notice = jest.fn<typeof core.notice>()
export const error = jest.fn<typeof core.error>()
export const startGroup = jest.fn<typeof core.startGroup>()
export const endGroup = jest.fn<typeof core.endGroup>()
export const ExitCode = { Success: 0, Failure: 1 } as const

/** The job summary as written, one string per `write()`. */
export const summaries: string[] = []
let buffer = ''

/** A stand-in for `core.summary` that renders the same HTML without needing a file. */
export const summary = {
  addHeading(text: string, level = 1) {
    buffer += `<h${level}>${text}</h${level}>\n`
    return summary
  },
  addRaw(text: string, addEol = false) {
    buffer += addEol ? `${text}\n` : text
    return summary
  },
  addTable(rows: { data: string; header?: boolean }[][]) {
    const body = rows
      .map(
        (row) =>
          `<tr>${row.map((c) => (c.header ? `<th>${c.data}</th>` : `<td>${c.data}</td>`)).join('')}</tr>`
      )
      .join('')
    buffer += `<table>${body}</table>\n`
    return summary
  },
  async write() {
    summaries.push(buffer)
    buffer = ''
    return summary
  }
}

/** Clears recorded calls and inputs between tests. */
export function reset(): void {
  for (const key of Object.keys(inputs)) delete inputs[key]
  summaries.length = 0
  buffer = ''
}

/** Every output set, last value wins, as the runner reads them. */
export function outputs(): Record<string, string> {
  return Object.fromEntries(setOutput.mock.calls.map(([name, value]) => [name, String(value)]))
}

/** Everything printed to the log, one string per call, in order. */
export function logLines(): string[] {
  return [...info.mock.calls, ...warning.mock.calls, ...notice.mock.calls, ...debug.mock.calls].map(
    ([m]) => String(m)
  )
}

/**
 * The messages the step said it fails with: error annotations titled as the action's warnings
 * are (`Mintlify agent`), one a failure.
 */
export function failures(): string[] {
  return error.mock.calls
    .filter(([, properties]) => properties?.title === 'Mintlify agent')
    .map(([m]) => String(m))
}
