/** The backlink comment's record on the docs pull request: written as JSON, read as untrusted. */
import { cut } from '../../base/sanitize.js'

export const MAX_BACKLINK_CHANGES = 20

/** One code change that fed the docs job: a pull request, or pushed commits. */
export interface FedChange {
  /** `owner/name`. */
  readonly repo: string
  readonly pull?: number
  /** The pull request's title, or the pushed head commit's first line. */
  readonly title?: string
  readonly author?: string
  readonly sha?: string
  readonly commits?: number
  readonly run?: string
  /** Not a push: a scheduled or manual run that sent everything up to `sha`. */
  readonly via?: 'schedule' | 'manual'
}

/** What the backlink comment records, in its hidden first line. */
export interface Backlink {
  readonly projectId: string
  /** Oldest first; older ones drop off past `MAX_BACKLINK_CHANGES`. */
  readonly changes: readonly FedChange[]
  readonly code?: 'merged' | 'closed'
  /** Reviewers already asked (`login`, `org/team`), lower case: each is asked once. */
  readonly asked: readonly string[]
  /** Labels already added, lower case: a label someone removed is not added again. */
  readonly labeled: readonly string[]
}

const BACKLINK =
  /^<!-- mintlify-agent-action docs-backlink project=(\S+) data=([A-Za-z0-9_-]*) -->(?:\r?\n|$)/
const CLOSING = /^<!-- mintlify-agent-action docs-closed project=(\S+) -->(?:\r?\n|$)/
const REPO = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/
export const SHA = /^[0-9a-f]{7,40}$/

const encodeId = (value: string) => encodeURIComponent(value).replace(/-/g, '%2D')

/** The hidden first line of the backlink: the project, and the record as base64url JSON. */
export function backlinkMarker(record: Backlink): string {
  const { projectId, ...data } = record
  const encoded = Buffer.from(JSON.stringify(data), 'utf8').toString('base64url')
  return `<!-- mintlify-agent-action docs-backlink project=${encodeId(projectId)} data=${encoded} -->`
}

/** The hidden first line of the comment that says why the docs pull request was closed. */
export function closingMarker(projectId: string): string {
  return `<!-- mintlify-agent-action docs-closed project=${encodeId(projectId)} -->`
}

function decodeId(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

function strings(value: unknown, max: number): string[] {
  if (!Array.isArray(value)) return []
  return value.filter((v): v is string => typeof v === 'string' && v.length <= 200).slice(0, max)
}

/** A recorded change of the shape the action writes; anything else is dropped. */
function readChange(value: unknown): FedChange[] {
  if (!value || typeof value !== 'object') return []
  const v = value as Record<string, unknown>
  if (typeof v.repo !== 'string' || !REPO.test(v.repo)) return []
  const text = (x: unknown, max: number) => (typeof x === 'string' && x ? cut(x, max) : undefined)
  const count = (x: unknown) =>
    typeof x === 'number' && Number.isInteger(x) && x > 0 && x < 1e10 ? x : undefined
  return [
    {
      repo: v.repo,
      pull: count(v.pull),
      title: text(v.title, 200),
      author: text(v.author, 100),
      sha: typeof v.sha === 'string' && SHA.test(v.sha) ? v.sha : undefined,
      commits: count(v.commits),
      run: text(v.run, 500),
      via: v.via === 'schedule' || v.via === 'manual' ? v.via : undefined
    }
  ]
}

/** The record whose marker opens `body`; one quoted elsewhere, or not parsing, reads as none. */
export function readBacklink(body: string): Backlink | undefined {
  const match = BACKLINK.exec(body)
  if (!match) return undefined
  const projectId = decodeId(match[1] ?? '')
  if (!projectId) return undefined
  let data: unknown
  try {
    data = JSON.parse(Buffer.from(match[2] ?? '', 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
  if (!data || typeof data !== 'object') return undefined
  const d = data as Record<string, unknown>
  const changes = Array.isArray(d.changes) ? d.changes.flatMap(readChange) : []
  return {
    projectId,
    changes: changes.slice(-MAX_BACKLINK_CHANGES),
    code: d.code === 'merged' || d.code === 'closed' ? d.code : undefined,
    asked: strings(d.asked, 50),
    labeled: strings(d.labeled, 50)
  }
}

/** The changes with `change` last; the same run writing again replaces its own entry. */
export function withChange(changes: readonly FedChange[], change: FedChange): FedChange[] {
  const last = changes.at(-1)
  const same =
    last !== undefined &&
    last.repo === change.repo &&
    last.pull === change.pull &&
    last.sha === change.sha &&
    last.run === change.run
  return [...(same ? changes.slice(0, -1) : changes), change].slice(-MAX_BACKLINK_CHANGES)
}

/** Whether `body` is the closing note for `projectId`: its marker opens it. */
export function isClosingNote(body: string, projectId: string): boolean {
  const match = CLOSING.exec(body)
  return match !== null && decodeId(match[1] ?? '') === projectId
}
