// The prompt from a file is sent to the agent and shown in the log and the summary, so its path,
// every link followed, must lead to a regular file inside the workspace: `/proc/self/environ` or
// a link in the repository pointing there must never be read.
import { constants } from 'node:fs'
import { open, realpath, stat } from 'node:fs/promises'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import { InputError, cancellation, errorMessage } from '../../base/errors.js'
import { forLog } from '../../base/sanitize.js'

// Larger, a wrong path fails clearly instead of slowly.
const MAX_PROMPT_FILE_BYTES = 1_000_000

interface PromptSource {
  readonly prompt: string
  readonly promptFile: string
  /** The runner's workspace, which `promptFile` is relative to and must stay in. */
  readonly workspace: string
  /** When reading the file must have ended, on `Date.now()`'s clock. */
  readonly deadline: number
  readonly signal?: AbortSignal
  /** A prompt may be left out (with `job-id`: attaching to the job). */
  readonly optional: boolean
}

/**
 * The prompt from `prompt` or the file `prompt-file`: exactly one, unless it is `optional` (then
 * neither gives ''). A problem goes to `problems`, and no message quotes the file.
 */
export async function readPrompt(
  problems: Error[],
  source: PromptSource
): Promise<string | undefined> {
  const { prompt, promptFile, signal } = source
  const problem = (input: string, message: string) => {
    problems.push(new InputError(input, message))
    return undefined
  }
  if (prompt && promptFile) {
    return problem('prompt-file', 'cannot be used together with prompt; give one of them')
  }
  if (!promptFile) {
    if (source.optional && !prompt) return ''
    const given = prompt.trim()
    return given || problem('prompt', 'is required (or prompt-file): the instruction for the agent')
  }
  const named = `"${forLog(promptFile, 200)}"`
  let text: string
  try {
    const path = await insideWorkspace(promptFile, source.workspace)
    if (typeof path !== 'string') return problem('prompt-file', `${named} ${path.refused}`)
    text = await readTextFile(path, MAX_PROMPT_FILE_BYTES, source.deadline, signal)
  } catch (error: unknown) {
    if (signal?.aborted) throw cancellation(signal)
    const reason =
      error && typeof error === 'object' && 'code' in error && error.code === 'ENOENT'
        ? 'no such file (paths are relative to the workspace; check out the repository first)'
        : errorMessage(error)
    return problem('prompt-file', `cannot read ${named}: ${reason}`)
  }
  return text.trim() || problem('prompt-file', `${named} is empty; it must contain the prompt`)
}

const ACCEPTED = 'give the path of a file in the repository, relative to the workspace'

/** Whether `path` is `dir` or below it; both absolute. */
function isWithin(dir: string, path: string): boolean {
  const rest = relative(dir, path)
  return rest === '' || (!isAbsolute(rest) && rest !== '..' && !rest.startsWith(`..${sep}`))
}

/**
 * The real path of `path` when it is a regular file inside the real workspace, or why it is
 * refused; a path written outside the workspace is refused before the file system is asked.
 */
async function insideWorkspace(
  path: string,
  workspace: string
): Promise<string | { refused: string }> {
  const outside = { refused: `leads outside the workspace; ${ACCEPTED}` }
  const base = resolve(workspace)
  let root: string
  try {
    root = await realpath(base)
  } catch (error: unknown) {
    return { refused: `cannot be read: the workspace cannot be found (${errorMessage(error)})` }
  }
  const given = resolve(base, path)
  // The workspace may itself be a link: a path may name it either way, where it leads counts.
  if (!isWithin(base, given) && !isWithin(root, given)) return outside
  const real = await realpath(given)
  if (!isWithin(root, real)) return outside
  // Opening a FIFO blocks until a writer comes, and a device such as /dev/zero never ends.
  if (!(await stat(real)).isFile()) return { refused: `is not a regular file; ${ACCEPTED}` }
  return real
}

/**
 * Reads a regular file of at most `max` bytes, opened without following a link or blocking and
 * checked again once open, so a file swapped meanwhile is not read; within the deadline.
 */
async function readTextFile(
  path: string,
  max: number,
  deadline: number,
  signal?: AbortSignal
): Promise<string> {
  const info = await stat(path)
  if (info.size > max)
    throw new Error(`it is ${info.size} bytes; prompts of at most ${max} bytes are read`)
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  try {
    const opened = await file.stat()
    if (!opened.isFile() || opened.ino !== info.ino || opened.dev !== info.dev) {
      throw new Error('it changed while it was being opened')
    }
    const buffer = Buffer.alloc(max + 1)
    let length = 0
    while (length < buffer.length) {
      if (signal?.aborted) throw cancellation(signal)
      if (Date.now() > deadline) throw new Error("it could not be read within the step's timeout")
      const { bytesRead } = await file.read(buffer, length, buffer.length - length, length)
      if (bytesRead === 0) break
      length += bytesRead
    }
    if (length > max)
      throw new Error(`it is over ${max} bytes; prompts of at most ${max} bytes are read`)
    return buffer.subarray(0, length).toString('utf8')
  } finally {
    await file.close()
  }
}
