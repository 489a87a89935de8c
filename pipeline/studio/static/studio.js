// geodeck studio: the make-a-deck form checked and previewed as it changes; a job's page follows its job.
"use strict";

// The answer's problems beside their fields and its preview, the fields left as the user is typing them.
function shown(fresh) {
  document.querySelectorAll("#recipe-form [data-field]").forEach((place) => {
    const answer = fresh.querySelector(`[data-field="${CSS.escape(place.dataset.field)}"]`);
    place.querySelectorAll(".problem, small.uploaded").forEach((old) => old.remove());
    const input = place.querySelector("input, select, textarea");
    const again = answer && answer.querySelector("input, select, textarea");
    for (const attribute of ["aria-invalid", "aria-describedby"]) {
      if (!input) break;
      if (again && again.hasAttribute(attribute)) input.setAttribute(attribute, again.getAttribute(attribute));
      else input.removeAttribute(attribute);
    }
    if (answer) answer.querySelectorAll(".problem, small.uploaded").forEach((line) => place.append(line));
  });
  document.querySelector(".preview").replaceWith(fresh.querySelector(".preview"));
  const choices = fresh.getElementById("category-fields");  // their words in the deck's language
  if (choices) document.getElementById("category-fields").replaceWith(choices);
}

// A category's field chosen from the field table's list: its direction, label and unit filled in where they are
// empty or still as the list filled them (what the user typed stays), before the form is checked.
function categoryChoices() {
  document.querySelectorAll('#recipe-form input[list="category-fields"]').forEach((input) => {
    input.addEventListener("change", () => {
      const choice = [...document.getElementById("category-fields").options].find((o) => o.value === input.value);
      if (!choice) return;
      const row = input.name.slice(0, -"field".length);
      for (const [part, value] of [["direction", choice.dataset.direction], ["words.label", choice.dataset.label],
        ["words.unit", choice.dataset.unit]]) {
        const target = document.querySelector(`[name="${CSS.escape(row + part)}"]`);
        if (!target || !value) continue;
        if (part === "direction" || target.value === "" || target.value === target.dataset.filled) {
          target.value = value;
          target.dataset.filled = value;
        }
      }
    });
  });
}

function liveForm() {
  const holder = document.querySelector(".make");
  if (!holder) return;
  let pending = null;
  holder.addEventListener("change", (event) => {
    const form = event.target.closest("#recipe-form");
    if (!form) return;
    if (pending) pending.abort();
    pending = new AbortController();
    holder.setAttribute("aria-busy", "true");
    fetch(form.action, { method: "POST", body: new FormData(form), signal: pending.signal })
      .then((response) => response.text())
      .then((html) => {
        const fresh = new DOMParser().parseFromString(html, "text/html");
        if (fresh.querySelector(".make")) shown(fresh);
      })
      .catch(() => {})
      .finally(() => holder.removeAttribute("aria-busy"));
  });
}

function followJob() {
  const job = document.getElementById("job");
  if (!job || job.dataset.state !== "running") return;
  const state = document.getElementById("job-state");
  const tick = () =>
    fetch(job.dataset.stateUrl)
      .then((response) => response.json())
      .then((now) => {
        state.textContent = state.dataset[now.state] + (now.state === "running" ? " " + now.elapsed + " s" : "");
        const counted = /^(\d+)\/(\d+)$/.exec(now.step);  // games played of those planned (play-check)
        if (now.state === "running" && counted && Number(counted[2]) > 0) {
          const bar = document.getElementById("progress");
          bar.max = Number(counted[2]);
          bar.value = Number(counted[1]);
        }
        document.getElementById("job-result").textContent = now.result;
        if (now.state === "failed") document.getElementById("job-result").className = "problem";
        if (now.state === "running") {
          setTimeout(tick, 1000);
          return;
        }
        if (now.fixes) {  // a refusal's fixes: the page offers them as buttons
          window.location.reload();
          return;
        }
        job.dataset.state = now.state;
        const bar = document.getElementById("progress");
        bar.max = 1;
        bar.value = 1;
        document.getElementById("job-cancel").hidden = true;
        document.getElementById("job-file").hidden = !now.file;
      });
  tick();
}

// A search box that hides the table rows not containing what is typed (the regions' countries).
function filters() {
  document.querySelectorAll("input[data-filters]").forEach((box) => {
    box.addEventListener("input", () => {
      const wanted = box.value.trim().toLowerCase();
      document.querySelectorAll(box.dataset.filters).forEach((row) => {
        row.hidden = wanted !== "" && !row.textContent.toLowerCase().includes(wanted);
      });
    });
  });
}

// The table's newest lines in view.
function screenToEnd() {
  const screen = document.getElementById("screen");
  if (screen) screen.scrollTop = screen.scrollHeight;
}

document.addEventListener("DOMContentLoaded", () => {
  screenToEnd();
  filters();
  categoryChoices();
  liveForm();
  followJob();
});
