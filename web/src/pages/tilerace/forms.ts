// A small declarative form for the admin view: every admin action that
// takes a handful of fields is one of these — labelled inputs inside a
// <form>, so Enter submits and each control has its label.

import { h } from "../../ui";

export interface FieldSpec {
  name: string;
  label: string;
  kind?: "text" | "number" | "checkbox" | "textarea" | "select" | "password" | "url" | "color";
  /** a select's [value, label] pairs. */
  options?: [string, string][];
  value?: string | number | boolean;
  min?: number;
  max?: number;
  step?: string;
  placeholder?: string;
}

export type Values = Record<string, string | number | boolean>;

export interface Form {
  el: HTMLFormElement;
  /** set fills the inputs named in v (others stay). */
  set(v: Values): void;
  values(): Values;
  input(name: string): HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
}

/**
 * form builds a form with ids `${id}-${field}` and a submit button `${id}-go`;
 * submit runs onSubmit with the values (numbers as numbers, checkboxes as
 * booleans, text trimmed), disabling the button meanwhile.
 */
export function form(id: string, specs: FieldSpec[], submit: string, onSubmit: (v: Values) => Promise<unknown>, opts: { primary?: boolean } = {}): Form {
  const inputs = new Map<string, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>();
  const rows = specs.map((f) => {
    const fid = `${id}-${f.name}`;
    let input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
    if (f.kind === "textarea") input = h("textarea", { id: fid, name: f.name, placeholder: f.placeholder }, String(f.value ?? ""));
    else if (f.kind === "select") input = h("select", { id: fid, name: f.name }, ...(f.options ?? []).map(([v, l]) => h("option", { value: v, selected: String(f.value ?? "") === v }, l)));
    else
      input = h("input", {
        id: fid,
        name: f.name,
        type: f.kind ?? "text",
        value: f.kind === "checkbox" ? undefined : f.value === undefined ? undefined : String(f.value),
        checked: f.kind === "checkbox" && f.value === true,
        min: f.min,
        max: f.max,
        step: f.step,
        placeholder: f.placeholder,
      });
    inputs.set(f.name, input);
    return f.kind === "checkbox" ? h("label", { class: "check" }, input, " ", f.label) : h("label", {}, f.label, " ", input);
  });
  const go = h("button", { type: "submit", id: `${id}-go`, class: opts.primary ? "primary" : undefined }, submit);
  const el = h("form", { id, class: "tr-form" }, ...rows, go);
  const values = (): Values => {
    const out: Values = {};
    for (const f of specs) {
      const input = inputs.get(f.name)!;
      if (f.kind === "checkbox") out[f.name] = (input as HTMLInputElement).checked;
      else if (f.kind === "number") out[f.name] = input.value === "" ? 0 : Number(input.value);
      else out[f.name] = f.kind === "textarea" || f.kind === "password" ? input.value : input.value.trim();
    }
    return out;
  };
  el.addEventListener("submit", async (e) => {
    e.preventDefault();
    go.disabled = true;
    try {
      await onSubmit(values());
    } finally {
      go.disabled = false;
    }
  });
  return {
    el,
    values,
    input: (name) => inputs.get(name)!,
    set(v) {
      for (const [k, x] of Object.entries(v)) {
        const input = inputs.get(k);
        if (!input) continue;
        if (input instanceof HTMLInputElement && input.type === "checkbox") input.checked = !!x;
        else input.value = String(x ?? "");
      }
    },
  };
}
