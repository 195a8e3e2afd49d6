// Interim: replaced by the media capability's picker (uploads, reordering) when it lands.
export function PhotoPicker(props: { label?: string; initial: { src: string; alt: string }[]; error?: string; fieldErrors?: string[]; max?: number }) {
  return (
    <fieldset>
      <legend className="font-semibold">{props.label ?? "Photos"}</legend>
      {props.error ? <p className="text-sm font-semibold text-red-800">{props.error}</p> : null}
      {props.initial.map((p, i) => (
        <div key={`${p.src}-${i}`}>
          <input type="hidden" name="photoSrc" value={p.src} />
          <label htmlFor={`photo-alt-${i}`}>Alt text</label>
          <input id={`photo-alt-${i}`} name="photoAlt" defaultValue={p.alt} />
        </div>
      ))}
    </fieldset>
  );
}
