// Record / Stop: while recording, every change the person makes (endpoints, rules, subscriptions,
// events with their faults, panel actions, the clock) is captured by the engine host; Stop turns it
// into a scenario and opens it in the Scenarios view.
import { run, toast, useApp } from '../state'

export function RecordButton() {
  const recording = useApp((s) => s.snapshot?.recording)
  if (!recording) return null
  if (!recording.active) {
    return (
      <button
        className="btn"
        data-testid="record"
        title="Record what you do into a scenario"
        onClick={() => void run('Record', (c) => c.call('record.start', {})).then((r) => r && toast('info', 'Recording: set things up and send events; Stop makes the scenario'))}
      >
        <span className="rec-dot" /> Record
      </button>
    )
  }
  const stop = async () => {
    const result = await run('Stop recording', (c) => c.call('record.stop', {}))
    if (!result) return
    useApp.setState({ draft: { text: result.text, fileName: 'recorded-scenario.json', notes: result.notes }, view: 'scenarios' })
    if (result.problems.length > 0) toast('error', `The recorded scenario has ${result.problems.length} problem(s); see the editor`)
    else toast('ok', 'Scenario recorded')
  }
  return (
    <button className="btn recording" data-testid="record-stop" title="Stop recording and make the scenario" onClick={() => void stop()}>
      <span className="rec-dot" /> Stop ({recording.events} event{recording.events === 1 ? '' : 's'})
    </button>
  )
}
