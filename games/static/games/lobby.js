// A quick pick of enchanted ranks ticks its ranks below (the server reads the pick alone without JavaScript).
document.addEventListener("change", (event) => {
  if (event.target.id !== "id_enchanted_stage") return;
  const stages = JSON.parse(document.getElementById("enchanted-stages").textContent);
  const ranks = stages[event.target.value] || [];
  document.querySelectorAll('input[name="opt_enchanted"]').forEach((box) => { box.checked = ranks.includes(box.value); });
});

// The chosen rule set's one-line summary beside the choice (the server writes the first one).
document.addEventListener("change", (event) => {
  if (event.target.name !== "preset" || !event.target.closest(".create-form")) return;
  const summaries = JSON.parse(document.getElementById("preset-summaries").textContent);
  const shown = document.getElementById("preset-summary");
  if (shown) shown.textContent = summaries[event.target.value] || "";
});
