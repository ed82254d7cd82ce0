import type { Clock } from '../../../shared/clock'
import { createRealClock } from './real-clock'
import { createScaledClock } from './scaled-clock'
import { createVirtualClock } from './virtual-clock'

export type ClockSpec = { mode: 'real' } | { mode: 'scaled'; factor: number; start?: number } | { mode: 'virtual'; start?: number }

/** One clock from its description (scenario files, settings). */
export function createClock(spec: ClockSpec): Clock {
  switch (spec.mode) {
    case 'real':
      return createRealClock()
    case 'scaled':
      return createScaledClock({ factor: spec.factor, ...(spec.start === undefined ? {} : { start: spec.start }) })
    case 'virtual':
      return createVirtualClock(spec.start === undefined ? {} : { start: spec.start })
    default: {
      const never: never = spec
      throw new Error(`unknown clock mode ${JSON.stringify(never)}`)
    }
  }
}
