// The account page's two comforts (templates/account.html). Without this
// script the page still works: the token can be selected and copied by hand,
// and Revoke revokes at once.
//
// Copy: the new token is shown this once, and a long random string is easy
// to copy short by a character, so a button puts the whole of it on the
// clipboard and says "Copied" where the player is looking.
//
// Revoke: a revoked token cannot be brought back (a client using it stops
// working until it is given a new one), so the first press only asks
// "Really revoke?"; the second press, on the same button, revokes. Moving on
// (focus or pointer leaving the button) takes the question back.

const copyButton = document.getElementById("copy-token");
const shown = document.getElementById("new-token");
const said = document.getElementById("copy-said");

async function copyToken() {
  try {
    await navigator.clipboard.writeText(shown.value);
  } catch {
    // No clipboard API here (not a secure page, say): the older way, from the selected field.
    shown.select();
    if (!document.execCommand("copy")) {
      said.textContent = "Could not copy: select the token and copy it by hand.";
      return;
    }
  }
  said.textContent = "Copied";
}

if (copyButton && shown && said) {
  copyButton.hidden = false;
  copyButton.addEventListener("click", () => { copyToken(); });
}

function askFirst(form) {
  const button = form.querySelector("button[type=submit]");
  const name = form.dataset.token;
  const plain = { text: button.textContent, label: button.getAttribute("aria-label") };
  let asking = false;
  const takeBack = () => {
    asking = false;
    button.textContent = plain.text;
    button.setAttribute("aria-label", plain.label);
    button.classList.remove("danger");
  };
  form.addEventListener("submit", (e) => {
    if (asking) return; // the second press: revoke
    e.preventDefault();
    asking = true;
    button.textContent = "Really revoke?";
    button.setAttribute("aria-label", `Really revoke ${name}?`);
    button.classList.add("danger");
  });
  button.addEventListener("blur", takeBack);
}

for (const form of document.querySelectorAll("form.revoke")) askFirst(form);
