import { Plus, Trash } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../ui/button.tsx";
import { Label } from "../../ui/label.tsx";
import { Select } from "../../ui/select.tsx";
import { ControlField } from "./setting-controls.tsx";
import type { Control, EditorSpec, FieldSpec, Option } from "./setting-editors.ts";

type Problems = Readonly<Record<string, string>>;

interface SimpleEditorProps {
  editor: EditorSpec;
  value: unknown;
  onChange: (value: unknown) => void;
  problems: Problems;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A problem with the whole value, said above its controls. */
function WholeProblem({ message }: { message: string | undefined }) {
  if (!message) return null;
  return <p className="text-sm text-destructive">{message}</p>;
}

function DoesNotFit() {
  return (
    <p className="rounded-md border border-dashed p-4 text-sm text-muted-foreground">
      This value does not have the shape Simple Mode edits. Fix it in Advanced Mode.
    </p>
  );
}

/** The fitting controls of one setting (admin-console.md §9): sliders, selects, inputs, a row per map entry. */
export function SimpleEditor({ editor, value, onChange, problems }: SimpleEditorProps) {
  if (editor.shape === "scalar") {
    return (
      <ControlField
        control={editor.control}
        label={editor.label}
        value={value}
        onChange={onChange}
        error={problems[""]}
      />
    );
  }
  if (!isRecord(value)) return <DoesNotFit />;
  if (editor.shape === "object") {
    return (
      <div className="grid gap-4">
        <WholeProblem message={problems[""]} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          {editor.fields.map((field) => (
            <ControlField
              key={field.name}
              control={field.control}
              label={field.label}
              value={value[field.name]}
              onChange={(next) => onChange({ ...value, [field.name]: next })}
              error={problems[field.name]}
              className={field.wide ? "sm:col-span-2" : undefined}
            />
          ))}
        </div>
      </div>
    );
  }
  return <MapEditor editor={editor} value={value} onChange={onChange} problems={problems} />;
}

function MapEditor(props: {
  editor: Extract<EditorSpec, { shape: "map" }>;
  value: Record<string, unknown>;
  onChange: (value: unknown) => void;
  problems: Problems;
}) {
  const { editor, value, onChange, problems } = props;
  const labelOf = (entry: string) => editor.entries.find((option) => option.value === entry)?.label ?? entry;
  const fields = Array.isArray(editor.value) ? (editor.value as readonly FieldSpec[]) : null;
  const single = fields ? null : (editor.value as Control);
  const missing = editor.entries.filter((option) => !Object.hasOwn(value, option.value));

  const setEntry = (entry: string, next: unknown) => onChange({ ...value, [entry]: next });
  const removeEntry = (entry: string) => {
    const { [entry]: _removed, ...rest } = value;
    onChange(rest);
  };

  return (
    <div className="grid gap-3">
      <WholeProblem message={problems[""]} />
      <ul className="grid gap-3">
        {Object.entries(value).map(([entry, inner]) => {
          const label = labelOf(entry);
          const row = isRecord(inner) ? inner : {};
          return (
            <li key={entry} className="grid gap-3 rounded-md border p-3">
              <div className="flex items-end gap-2">
                {single ? (
                  <ControlField
                    className="min-w-0 flex-1"
                    control={single}
                    label={label}
                    value={inner}
                    onChange={(next) => setEntry(entry, next)}
                    error={problems[entry]}
                  />
                ) : (
                  <p className="min-w-0 flex-1 self-center text-sm font-medium break-words">{label}</p>
                )}
                {editor.fixed ? null : (
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove ${label}`}
                    className="text-destructive"
                    onClick={() => removeEntry(entry)}
                  >
                    <Trash aria-hidden="true" />
                  </Button>
                )}
              </div>
              {fields ? (
                <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
                  {!isRecord(inner) ? <DoesNotFit /> : null}
                  {problems[entry] ? <p className="text-sm text-destructive sm:col-span-3">{problems[entry]}</p> : null}
                  {fields.map((field) => (
                    <ControlField
                      key={field.name}
                      control={field.control}
                      label={field.label}
                      context={label}
                      value={row[field.name]}
                      onChange={(next) => setEntry(entry, { ...row, [field.name]: next })}
                      error={problems[`${entry}.${field.name}`]}
                      className={field.wide ? "sm:col-span-2" : undefined}
                    />
                  ))}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      {!editor.fixed && missing.length > 0 ? (
        <AddEntry
          entryLabel={editor.entryLabel}
          options={missing}
          onAdd={(entry) => setEntry(entry, fields ? blankRow(fields) : 0)}
        />
      ) : null}
    </div>
  );
}

/** A new row starts with each select's first choice and empty text, for the person to fill in. */
function blankRow(fields: readonly FieldSpec[]): Record<string, unknown> {
  return Object.fromEntries(
    fields.map((field) => [field.name, field.control.kind === "select" ? (field.control.options[0]?.value ?? "") : ""]),
  );
}

function AddEntry(props: { entryLabel: string; options: readonly Option[]; onAdd: (entry: string) => void }) {
  const { entryLabel, options, onAdd } = props;
  const id = useId();
  const [chosen, setChosen] = useState("");
  const entry = options.some((option) => option.value === chosen) ? chosen : "";
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="grid min-w-0 flex-1 gap-1.5">
        <Label htmlFor={id}>{`Add ${entryLabel.toLowerCase()}`}</Label>
        <Select id={id} value={entry} onChange={(event) => setChosen(event.target.value)}>
          <option value="" disabled hidden>
            {`Select a ${entryLabel.toLowerCase()}`}
          </option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      </div>
      <Button
        variant="outline"
        disabled={entry === ""}
        onClick={() => {
          onAdd(entry);
          setChosen("");
        }}
      >
        <Plus aria-hidden="true" />
        Add
      </Button>
    </div>
  );
}
