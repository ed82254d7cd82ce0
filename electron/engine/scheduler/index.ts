export { createScheduler, type Scheduler, type SchedulerOptions } from './scheduler'
