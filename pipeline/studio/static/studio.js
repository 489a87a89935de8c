// geodeck studio: the make-a-deck form checked and previewed as it changes; a job's page follows its job.
"use strict";

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
        const fresh = new DOMParser().parseFromString(html, "text/html").querySelector(".make");
        if (!fresh) return;
        const focused = document.activeElement && document.activeElement.id;
        holder.innerHTML = fresh.innerHTML;
        if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
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
        document.getElementById("job-result").textContent = now.result;
        if (now.state === "failed") document.getElementById("job-result").className = "problem";
        if (now.state === "running") {
          setTimeout(tick, 1000);
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

document.addEventListener("DOMContentLoaded", () => {
  liveForm();
  followJob();
});
