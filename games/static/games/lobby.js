// A quick pick of enchanted ranks ticks its ranks below (the server reads the pick alone without JavaScript).
document.addEventListener("change", (event) => {
  if (event.target.id !== "id_enchanted_stage") return;
  const stages = JSON.parse(document.getElementById("enchanted-stages").textContent);
  const ranks = stages[event.target.value] || [];
  document.querySelectorAll('input[name="opt_enchanted"]').forEach((box) => { box.checked = ranks.includes(box.value); });
});
