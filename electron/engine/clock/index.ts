export { createRealClock } from './real-clock'
export type { Clock, ClockMode, TimerHandle } from '../../../shared/clock'
