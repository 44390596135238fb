import { describe, expect, it } from '@jest/globals'
import { ESLint } from 'eslint'
import { dirname, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Only the event parser reads the event's name: elsewhere in src/ it is shown, never tested. The
 * lint (`action/event-name` in eslint.config.js, which `npm run lint` runs over src/) holds it;
 * here it is shown to catch each way of writing a read.
 */
const root = fileURLToPath(new URL('..', import.meta.url))
const eslint = new ESLint({ cwd: root })
/** The parser's module, and a file outside it. */
const PARSER = 'src/given/event.ts'
const OUTSIDE = 'src/run/change/context.ts'

const READS: Record<string, string> = {
  'a comparison': "export const a = event.name === 'push'",
  'a switch': "export function f() { switch (event.name) { case 'push': return 1 } return 0 }",
  'a table indexed by it': 'export const a = ({ push: 1 } as Record<string, number>)[event.name]',
  'a computed member': "export const a = event['name'] === 'push'",
  'a method on it': "export const a = event.name.startsWith('pull')",
  'a set lookup': "export const a = new Set(['push']).has(event.name)",
  'a destructuring': 'const { name } = event\nexport const a = name',
  'an optional chain': "export const a = (event as Event | undefined)?.name === 'push'",
  'an argument': 'declare function f(s: string): boolean\nexport const a = f(event.name)',
  'the variable': 'export const a = process.env.GITHUB_EVENT_NAME',
  'the variable by index': "export const a = process.env['GITHUB_EVENT_NAME']",
  'the variable destructured': 'const { GITHUB_EVENT_NAME: n } = process.env\nexport const a = n',
  "the toolkit's context":
    'declare const github: { context: { eventName: string } }\nexport const a = github.context.eventName'
}

const SHOWN =
  'declare function oneLine(s: string, n: number): string\n' +
  "export const a = `Event: ${event.name}` + oneLine(event.name ?? '', 60)"

async function reads(text: string, file: string): Promise<number> {
  const from = relative(dirname(file), PARSER).replace(/\.ts$/, '.js')
  const head = `import type { Event } from './${from}'\ndeclare const event: Event\n`
  const [result] = await eslint.lintText(head + text, { filePath: `${root}${file}` })
  expect(result?.messages.filter((m) => m.fatal)).toEqual([])
  return result?.messages.filter((m) => m.ruleId === 'action/event-name').length ?? 0
}

describe("the event's name is read only by the parser", () => {
  it.each(Object.entries(READS))('refuses %s outside the parser', async (_, text) => {
    expect(await reads(text, OUTSIDE)).toBeGreaterThan(0)
    expect(await reads(text, 'src/given/read-event.ts')).toBe(0)
  })

  it('lets the name be shown in words', async () => {
    expect(await reads(SHOWN, OUTSIDE)).toBe(0)
  })
})
