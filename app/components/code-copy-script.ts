/**
 * The code blocks' copy buttons (app/server/post-markup.server.ts), as a few lines of
 * plain script the layout inlines with the CSP nonce: one click listener on the document,
 * so it needs no React, no hydration, and serves blocks a client-side navigation brings in
 * later. It copies the block's text (the Clipboard API, else a hidden textarea and
 * execCommand for plain-http sites), then shows the button's "Copied" word for two seconds
 * and puts it in the block's status region, which screen readers announce.
 */
export const CODE_COPY_SCRIPT = `(function(){
function legacy(text){var a=document.createElement("textarea");a.value=text;a.setAttribute("readonly","");a.style.position="fixed";a.style.opacity="0";document.body.appendChild(a);a.select();var ok=false;try{ok=document.execCommand("copy")}catch(e){}a.remove();return ok?Promise.resolve():Promise.reject()}
document.addEventListener("click",function(event){
var button=event.target instanceof Element?event.target.closest("button.code-copy"):null;
var block=button&&button.closest(".code-block");var pre=block&&block.querySelector("pre");
if(!pre)return;
var text=pre.textContent||"";
var copying=navigator.clipboard&&window.isSecureContext?navigator.clipboard.writeText(text).catch(function(){return legacy(text)}):legacy(text);
copying.then(function(){
var status=block.querySelector(".code-status");var word=button.getAttribute("data-copied")||"Copied";
if(!button.hasAttribute("data-label"))button.setAttribute("data-label",button.textContent||"");
button.textContent=word;if(status){status.textContent="";setTimeout(function(){status.textContent=word},30)}
clearTimeout(button._inkwellTimer);button._inkwellTimer=setTimeout(function(){button.textContent=button.getAttribute("data-label");if(status)status.textContent=""},2000);
},function(){});
});
})();`;
