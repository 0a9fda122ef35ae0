// The printable sheets' Print button: shown only where JavaScript can open the dialog.
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
