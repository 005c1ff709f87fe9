/**
 * The look of the embedded provider's pages, close to the web app's (Mantine, blue primary): one inline
 * stylesheet (the CSP allows inline styles, not scripts), system fonts, no external resources.
 */
export const IDP_STYLES = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;
  font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
  font-size:16px;line-height:1.5;color:#1a1b1e;background:#f1f4f9}
a{color:#1c4fa0}
a:hover{color:#163f80}
main{width:100%;max-width:440px;padding:48px 16px 24px;flex:1}
.brand{display:flex;align-items:center;justify-content:center;gap:10px;margin:0 0 24px;
  color:#1c4fa0;text-decoration:none;font-weight:700;font-size:1.5rem;letter-spacing:-.01em}
.brand svg{width:36px;height:36px;flex:none}
.card{background:#fff;border:1px solid #dee2e6;border-radius:12px;padding:32px;
  box-shadow:0 1px 3px rgba(16,24,40,.06),0 8px 24px rgba(16,24,40,.06)}
h1{font-size:1.375rem;line-height:1.3;margin:0 0 4px;font-weight:650}
.lead{margin:0 0 24px;color:#5c636e;font-size:.9375rem}
.alert{display:flex;gap:10px;align-items:flex-start;margin:0 0 20px;padding:12px 14px;border-radius:8px;
  font-size:.9375rem;background:#fff5f5;border:1px solid #ffc9c9;color:#a51d1d}
.alert.info{background:#e7f0ff;border-color:#b6ccf5;color:#163f80}
.alert svg{flex:none;width:20px;height:20px;margin-top:1px}
.alert a{color:inherit;font-weight:600}
form{margin:0}
.field{margin:0 0 16px}
label{display:block;font-weight:600;font-size:.875rem;margin:0 0 6px}
.optional{font-weight:400;color:#5c636e}
input,select{display:block;width:100%;height:44px;padding:0 12px;font:inherit;font-size:1rem;color:inherit;
  background:#fff;border:1px solid #ced4da;border-radius:8px;appearance:none;-webkit-appearance:none}
select{padding-right:36px;background-image:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='16' height='16' viewBox='0 0 24 24' fill='none' stroke='%235c636e' stroke-width='2'%3E%3Cpath d='m6 9 6 6 6-6'/%3E%3C/svg%3E");
  background-repeat:no-repeat;background-position:right 12px center}
input:hover,select:hover{border-color:#adb5bd}
input:focus-visible,select:focus-visible{outline:none;border-color:#1c4fa0;box-shadow:0 0 0 3px rgba(28,79,160,.25)}
input[aria-invalid=true],select[aria-invalid=true]{border-color:#e03131}
input[aria-invalid=true]:focus-visible,select[aria-invalid=true]:focus-visible{box-shadow:0 0 0 3px rgba(224,49,49,.2)}
.hint{margin:6px 0 0;font-size:.8125rem;color:#5c636e}
.field-error{margin:6px 0 0;font-size:.8125rem;color:#c92a2a;font-weight:500}
.button{display:flex;align-items:center;justify-content:center;gap:10px;width:100%;min-height:44px;
  padding:0 16px;font:inherit;font-weight:600;font-size:1rem;border-radius:8px;cursor:pointer;
  text-decoration:none;border:1px solid transparent}
.button:focus-visible{outline:3px solid rgba(28,79,160,.45);outline-offset:2px}
.primary{background:#1c4fa0;color:#fff}
.primary:hover{background:#163f80;color:#fff}
.secondary{background:#fff;color:#1a1b1e;border-color:#ced4da}
.secondary:hover{background:#f8f9fa;color:#1a1b1e}
.button svg{width:18px;height:18px;flex:none}
.divider{display:flex;align-items:center;gap:12px;margin:20px 0;color:#495057;font-size:.8125rem}
.divider::before,.divider::after{content:"";flex:1;border-top:1px solid #dee2e6}
.switch{margin:24px 0 0;text-align:center;font-size:.9375rem;color:#5c636e}
.switch a{font-weight:600}
footer{width:100%;max-width:440px;padding:0 16px 32px;text-align:center;font-size:.8125rem;color:#495057}
footer p{margin:4px 0}
footer svg{width:14px;height:14px;vertical-align:-2px;margin-right:4px}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);border:0}
@media (max-width:480px){
  main{padding:24px 12px 16px}
  .card{padding:24px 20px;border-radius:10px}
  .brand{margin-bottom:20px}
}
@media (prefers-reduced-motion:no-preference){.button,input,select{transition:background-color .12s,border-color .12s,box-shadow .12s}}
`;
