// @ts-check
// Loaded with `node --import` before the bundle under test, for the end-to-end tests that warp
// time (`warpTime` in harness.ts): the child's clock and timers run `E2E_TIME_SCALE` times as fast
// as real time, as the simulator's clock does: it read `E2E_TIME_AT` at real time `E2E_TIME_REAL`
// (both `Date.now()` milliseconds), so the child and the simulator keep the same time. The
// action then waits out a 10 s timeout, its poll intervals, GitHub's budgets and Octokit's retry
// waits in a fraction of the time, and the bundle stays exactly what a runner runs: no input and no
// variable of the action changes how it keeps time.
//
// Everything the bundle keeps time with is scaled: `Date` (`now` and `new Date()`),
// `performance.now`, `setTimeout`/`setInterval` (global and `node:timers`), `node:timers/promises`
// and `AbortSignal.timeout`. `setImmediate` and I/O are not: they take the time they take, which
// the scale multiplies on the action's clock, so a file that warps keeps a modest scale.
//
// `E2E_TIME_ELAPSED` names a file this writes at exit: the milliseconds the run took on its own
// clock from the first time it read it, which is when the action starts and counts its deadline
// from. What Node takes to start and to load the bundle (a few hundred milliseconds on a busy
// machine, seconds once multiplied) is not part of it.
import { writeFileSync } from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import timers from 'node:timers'
import timersPromises from 'node:timers/promises'

const scale = Number(process.env.E2E_TIME_SCALE)
const at = Number(process.env.E2E_TIME_AT)
const real = Number(process.env.E2E_TIME_REAL)
const elapsedFile = process.env.E2E_TIME_ELAPSED
// The action never sees them: they are the test's, not the runner's.
for (const name of ['SCALE', 'AT', 'REAL', 'ELAPSED']) delete process.env[`E2E_TIME_${name}`]

if (scale >= 1 && Number.isFinite(at) && Number.isFinite(real)) warp(scale, at, real)

/**
 * @param {number} scale
 * @param {number} at the time the clock showed at real time `real`
 * @param {number} real
 */
function warp(scale, at, real) {
  const realPerformanceNow = performance.now.bind(performance)
  const startedAt = realPerformanceNow()
  // Date.now on the real clock, read to the microsecond through the monotonic clock.
  const realAt = Date.now() - startedAt
  /** When the clock was first read, on the real monotonic clock. */
  let firstRead = NaN
  const read = () => {
    const ms = realPerformanceNow()
    if (Number.isNaN(firstRead)) firstRead = ms
    return ms
  }
  const now = () => at + (realAt + read() - real) * scale
  const performanceNow = () => startedAt + (read() - startedAt) * scale
  /** A wait on the fast clock, as the real timers take it. */
  const shorter = (/** @type {unknown} */ ms) => Math.max(0, Number(ms) || 0) / scale

  const RealDate = Date
  RealDate.now = () => Math.floor(now())
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) =>
      Reflect.construct(target, args.length === 0 ? [RealDate.now()] : args, newTarget),
    apply: () => new RealDate(RealDate.now()).toString()
  })
  performance.now = performanceNow

  const { setTimeout, setInterval } = timers
  /** @type {typeof globalThis.setTimeout} */
  const fastTimeout = Object.assign(
    (/** @type {any} */ callback, /** @type {unknown} */ ms, /** @type {any[]} */ ...args) =>
      setTimeout(callback, shorter(ms), ...args),
    { __promisify__: setTimeout.__promisify__ }
  )
  /** @type {typeof globalThis.setInterval} */
  const fastInterval = /** @type {any} */ (
    (/** @type {any} */ callback, /** @type {unknown} */ ms, /** @type {any[]} */ ...args) =>
      setInterval(callback, shorter(ms), ...args)
  )
  globalThis.setTimeout = timers.setTimeout = fastTimeout
  globalThis.setInterval = timers.setInterval = fastInterval

  const promises = {
    setTimeout: timersPromises.setTimeout,
    setInterval: timersPromises.setInterval,
    wait: timersPromises.scheduler.wait.bind(timersPromises.scheduler)
  }
  timersPromises.setTimeout = (ms, ...rest) => promises.setTimeout(shorter(ms), ...rest)
  timersPromises.setInterval = (ms, ...rest) => promises.setInterval(shorter(ms), ...rest)
  timersPromises.scheduler.wait = (ms, ...rest) => promises.wait(shorter(ms), ...rest)
  // `import { setTimeout } from 'node:timers/promises'` in the bundle sees these too.
  syncBuiltinESMExports()

  const timeout = AbortSignal.timeout.bind(AbortSignal)
  AbortSignal.timeout = (ms) => timeout(shorter(ms))

  if (elapsedFile) {
    process.on('exit', () => {
      const end = realPerformanceNow()
      const from = Number.isNaN(firstRead) ? startedAt : firstRead
      writeFileSync(elapsedFile, String((end - from) * scale))
    })
  }
}
