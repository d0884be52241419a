/**
 * The login page's passkey button: shown only where the browser has WebAuthn; a click asks the browser
 * for a passkey of this site (the options in the button's `data-options`), puts its answer in the form
 * and posts it, without username or password; a refusal or a cancel says so in the part's status line.
 */
export const PASSKEY_BUTTON_SCRIPT =
  "(function(){var button=document.getElementById('passkey-login');var lib=window.SimpleWebAuthnBrowser;" +
  'if(!button||!lib||!lib.browserSupportsWebAuthn())return;button.hidden=false;' +
  "button.addEventListener('click',function(){var form=button.form;var status=document.getElementById('passkey-status');status.textContent='';" +
  "lib.startAuthentication({optionsJSON:JSON.parse(button.getAttribute('data-options'))}).then(function(answer){" +
  "form.elements['webauthnResponse'].value=JSON.stringify(answer);" +
  "['username','password'].forEach(function(name){var field=form.elements[name];if(field){field.value='';}});form.submit();}," +
  "function(){status.textContent=button.getAttribute('data-failed');});});})();";

/**
 * The pages of the second factor and of the registration: submitting the form first runs the ceremony
 * (`data-ceremony`: `authenticate` or `register`, the options in `data-options`), puts the answer in
 * `webauthnResponse`, then posts the form; a refusal or a cancel says so in the page's status line.
 */
export const CEREMONY_SCRIPT =
  "(function(){var holder=document.getElementById('webauthn-ceremony');var lib=window.SimpleWebAuthnBrowser;if(!holder||!lib)return;" +
  "var form=holder.closest('form');var field=form.elements['webauthnResponse'];var status=document.getElementById('webauthn-status');" +
  "form.addEventListener('submit',function(event){if(field.value)return;event.preventDefault();status.textContent='';" +
  "var options={optionsJSON:JSON.parse(holder.getAttribute('data-options'))};" +
  "(holder.getAttribute('data-ceremony')==='register'?lib.startRegistration(options):lib.startAuthentication(options)).then(function(answer){" +
  "field.value=JSON.stringify(answer);form.submit();},function(){status.textContent=holder.getAttribute('data-failed');});});})();";
