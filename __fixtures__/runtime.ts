import type { Runtime } from '../src/base/runtime.js'

/** A virtual clock: `sleep` moves time forward at once, so a 30-minute wait takes no time. */
export interface VirtualRuntime extends Runtime {
  readonly sleeps: number[]
  readonly lines: { level: 'info' | 'warning' | 'debug'; message: string }[]
  advance(ms: number): void
  controller: AbortController
}

export const EPOCH = Date.parse('2026-11-22T00:00:00Z')

export function virtualRuntime(random = () => 0.5): VirtualRuntime {
  let time = EPOCH
  const controller = new AbortController()
  const sleeps: number[] = []
  const lines: VirtualRuntime['lines'] = []
  return {
    sleeps,
    lines,
    controller,
    signal: controller.signal,
    now: () => time,
    random,
    advance(ms) {
      time += ms
    },
    async sleep(ms, signal) {
      if (signal.aborted) throw signal.reason
      sleeps.push(ms)
      time += ms
    },
    log: {
      info: (message) => lines.push({ level: 'info', message }),
      warning: (message) => lines.push({ level: 'warning', message }),
      debug: (message) => lines.push({ level: 'debug', message })
    }
  }
}
