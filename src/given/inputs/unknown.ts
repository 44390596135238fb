// A runner hands each `with:` entry to the step as `INPUT_<NAME>` (hyphens kept), so a misspelt
// name (`api_key`) arrives under a variable the action never reads, and the input it meant reads
// as empty. Each one is named with the input it is closest to; a value is never looked at.
import { forLog } from '../../base/sanitize.js'

/** The variable a runner sets for the input `name`. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

/** A variable that names no input (`INPUT_API_KEY`), its name lower-cased, and the input meant. */
export interface UnknownInput {
  readonly variable: string
  readonly name: string
  readonly suggestion?: string
}

function normalised(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '')
}

/** Edits (insert, delete, replace, swap of two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = []
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i]
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j)
        continue
      }
      const above = rows[i - 1] ?? []
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1)
      }
      row.push(best)
    }
    rows.push(row)
  }
  return rows[a.length]?.[b.length] ?? Math.max(a.length, b.length)
}

/**
 * The input `name` most likely meant: with case, `_` and `-` left out, the one fewest edits away
 * if at most a third of its length (one under six letters), the first in `known` on a tie.
 */
export function closestInput(name: string, known: readonly string[]): string | undefined {
  const given = normalised(name)
  if (given === '') return undefined
  let best: { input: string; distance: number } | undefined
  for (const input of known) {
    const target = normalised(input)
    const distance = editDistance(given, target)
    const allowed = target.length < 6 ? 1 : Math.floor(target.length / 3)
    if (distance <= allowed && (!best || distance < best.distance)) best = { input, distance }
  }
  return best?.input
}

/** The `INPUT_*` variables in `env` that name no input in `known`, in `env`'s order. */
export function unknownInputs(env: NodeJS.ProcessEnv, known: readonly string[]): UnknownInput[] {
  const read = new Set(known.map(inputVariable))
  return Object.keys(env)
    .filter((variable) => variable.startsWith('INPUT_') && !read.has(variable))
    .flatMap((variable) => {
      const name = variable.slice('INPUT_'.length).toLowerCase()
      if (name === '') return []
      const suggestion = closestInput(name, known)
      return [suggestion ? { variable, name, suggestion } : { variable, name }]
    })
}

/** What the step says of a variable that names no input. */
export function unknownInputWords(unknown: UnknownInput): string {
  const name = forLog(unknown.name, 60)
  const variable = forLog(unknown.variable, 70)
  const meant = unknown.suggestion
    ? `did you mean ${unknown.suggestion}? Write it as ${unknown.suggestion} under with:.`
    : "the action's inputs are listed in its action.yml and README."
  return `"${name}" (${variable}) is not an input of this action, so it is ignored; ${meant}`
}
