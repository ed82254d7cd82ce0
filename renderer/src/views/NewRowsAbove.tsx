// The pill over a scrolled-down list while rows arrived above the rows in view: how many, and one
// click up to them, the newest at the top. It speaks as the notice above the timeline does
// (HiddenArrivalsNotice: rows, each counted once) and looks like it; that notice says what the
// view's filter or window hides, this what the scroll has left above.
import { countText } from '../../../shared/contract'

export function NewRowsAbove({ count, onShow }: { count: number; onShow: () => void }) {
  return (
    <div className="new-rows-place" role="status">
      {count > 0 && (
        <button className="new-rows" onClick={onShow} data-testid="new-rows-above" data-count={count} title="Rows that arrived above the ones you are reading: go up to them, the newest at the top">
          <span className="dot-live" aria-hidden />↑ {countText(count, 'new row')}
        </button>
      )}
    </div>
  )
}
