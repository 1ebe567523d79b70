// A click on a badge shows its page image beside the text instead of leaving the page.
// Captions are set with textContent, never as HTML.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const viewer = document.getElementById("viewer");
  const image = document.getElementById("page-image");
  const caption = document.getElementById("viewer-caption");
  document.getElementById("viewer-close").addEventListener("click", () => {
    viewer.hidden = true;
    document.body.classList.remove("viewing");
  });
  for (const badge of document.querySelectorAll("a.badge")) {
    badge.addEventListener("click", (event) => {
      event.preventDefault();
      for (const other of document.querySelectorAll("a.badge.active")) other.classList.remove("active");
      badge.classList.add("active");
      caption.textContent = badge.dataset.caption || "";
      image.src = badge.getAttribute("href");
      viewer.hidden = false;
      document.body.classList.add("viewing");
    });
  }
});
