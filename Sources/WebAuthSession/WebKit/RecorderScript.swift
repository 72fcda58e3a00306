/// The recorder's user script, in the engine's isolated world of the top frame, from
/// document start: capture listeners on the window hear what a person does (clicks, typed text,
/// Enter, checkboxes, `<select>` choices) from events with `isTrusted` only, so the page's own
/// `click()` and `dispatchEvent` are not recorded, and the page's `stopImmediatePropagation` (in
/// its world, on its listeners) runs after these. Each action is posted to the engine as one JSON
/// message (``RecordedEvent``), with a selector for its element checked unique on the page.
///
/// A password field's value never leaves the page. What the page does with keys is observed, not
/// guessed: a value the page rewrote after an input, a focus the page moved while a key was down,
/// a code split over one-character boxes: such a field is replayed with `type`. An element seen
/// disabled before it was used is waited for until enabled. Iframes and closed shadow roots are
/// out of scope, and said to be when met.
enum RecorderScript {
    /// The script message handler the recorder posts to, in ``JavaScriptBridge/helperWorld`` only.
    static let channel = "webauthsessionRecorder"

    /// The script (isolated world, top frame, document start).
    static let source = """
        (() => {
          const handler = window.webkit.messageHandlers.\(channel);
          const page = Math.random().toString(36).slice(2);
          const post = (message) => {
            message.page = page; message.host = location.host; message.path = location.pathname; message.title = document.title;
            try { handler.postMessage(JSON.stringify(message)); } catch (error) {}
          };
          const str = (value) => '"' + String(value).replace(/["\\\\]/g, '\\\\$&') + '"';
          // An id, name or class a framework made up (React's useId, CSS-in-JS hashes, counters).
          const stable = (value) => !!value && value.length <= 64 && !/[:\\s]|\\d{3,}/.test(value)
            && !/^(?:css|sc|jsx|emotion|ember|radix|headlessui|mui|chakra|react-select)[-_]/i.test(value)
            && !/^(?=[a-z0-9]*\\d)(?=[a-z0-9]*[a-z])[a-z0-9]{6,}$/i.test(value.split(/[-_]/).pop());
          const unique = (selector, element) => {
            try { const all = document.querySelectorAll(selector); return all.length === 1 && all[0] === element; } catch (error) { return false; }
          };
          const candidates = (element) => {
            const tag = element.localName, out = [];
            if (stable(element.id)) out.push('#' + CSS.escape(element.id));
            for (const name of ['data-testid', 'data-test', 'data-test-id', 'data-qa']) {
              const value = element.getAttribute(name);
              if (value) out.push('[' + name + '=' + str(value) + ']');
            }
            const name = element.getAttribute('name'), value = element.getAttribute('value');
            if (stable(name)) {
              out.push(tag + '[name=' + str(name) + ']');
              if (value && value.length <= 64) out.push(tag + '[name=' + str(name) + '][value=' + str(value) + ']');
            }
            const aria = element.getAttribute('aria-label');
            if (aria && aria.length <= 64) out.push(tag + '[aria-label=' + str(aria) + ']');
            const autocomplete = element.getAttribute('autocomplete');
            if (autocomplete && !['on', 'off'].includes(autocomplete)) out.push(tag + '[autocomplete=' + str(autocomplete) + ']');
            const type = element.getAttribute('type');
            if (type) out.push(tag + '[type=' + str(type) + ']');
            // Last, a class a person would name (a consent form's "positive" button), never a made-up one.
            for (const name of element.classList) if (stable(name)) out.push(tag + '.' + CSS.escape(name));
            return out;
          };
          // The first stable selector that is unique; then one scoped by the nearest ancestor that has
          // one; an index-based path only when nothing else is unique (indexed: true says so).
          const selectorFor = (element) => {
            const own = candidates(element);
            for (const selector of own) if (unique(selector, element)) return { selector, indexed: false };
            for (let anchor = element.parentElement; anchor && anchor !== document.documentElement; anchor = anchor.parentElement) {
              const base = candidates(anchor).find((selector) => unique(selector, anchor));
              if (!base) continue;
              for (const selector of own.concat([element.localName])) {
                if (unique(base + ' ' + selector, element)) return { selector: base + ' ' + selector, indexed: false };
              }
              break;
            }
            const parts = [];
            for (let node = element; node && node.parentElement && node !== document.body; node = node.parentElement) {
              const same = Array.from(node.parentElement.children).filter((child) => child.localName === node.localName);
              parts.unshift(same.length > 1 ? node.localName + ':nth-of-type(' + (same.indexOf(node) + 1) + ')' : node.localName);
            }
            return { selector: 'body > ' + parts.join(' > '), indexed: true };
          };
          const seenDisabled = new WeakSet();
          const disabled = '[disabled], [aria-disabled="true"]';
          const markDisabled = (node) => {
            if (node.nodeType !== 1) return;
            if (node.matches(disabled)) seenDisabled.add(node);
            node.querySelectorAll(disabled).forEach((element) => seenDisabled.add(element));
          };
          new MutationObserver((records) => {
            for (const record of records) {
              if (record.type === 'attributes') markDisabled(record.target); else record.addedNodes.forEach(markDisabled);
            }
          }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled', 'aria-disabled'] });
          const describe = (element) => {
            const found = selectorFor(element);
            return { selector: found.selector, indexed: found.indexed, tag: element.localName, type: element.type || '',
                     autocomplete: element.getAttribute('autocomplete') || '', name: element.getAttribute('name') || element.id || '',
                     waitEnabled: seenDisabled.has(element) };
          };
          const note = (text) => post({ kind: 'note', text });
          const textual = (element) => element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement
            && !['checkbox', 'radio', 'submit', 'button', 'image', 'reset', 'file', 'hidden', 'range', 'color'].includes(element.type));
          let field = null, keyDown = null, enterPressed = false;
          const flush = () => {
            if (!field) return;
            const current = field; field = null;
            const element = current.elements[0], secret = element.type === 'password';
            const value = current.elements.map((box) => box.value).join('');
            post(Object.assign(describe(element), { kind: 'field', secret, value: secret ? null : value,
              digits: /^\\d{6,8}$/.test(value) ? value.length : 0,
              keys: current.rewritten || current.focusMoved || current.elements.length > 1 }));
          };
          addEventListener('keydown', (event) => {
            if (!event.isTrusted) return;
            keyDown = event.key;
            if (event.key === 'Enter' && textual(event.target) && !(event.target instanceof HTMLTextAreaElement)) {
              const target = event.target;
              flush();
              post(Object.assign(describe(target), { kind: 'enter' }));
              enterPressed = true;
              setTimeout(() => { enterPressed = false; }, 0);
            }
          }, true);
          addEventListener('keyup', (event) => { if (event.isTrusted) keyDown = null; }, true);
          addEventListener('input', (event) => {
            const element = event.target;
            if (!event.isTrusted || !textual(element)) return;
            if (field && !field.elements.includes(element)) {
              const last = field.elements[field.elements.length - 1];
              // A code split over one-character boxes: the page moved the focus to the next box.
              if (field.focusMoved && element.maxLength === 1 && last.maxLength === 1) field.elements.push(element); else flush();
            }
            if (!field) field = { elements: [element], rewritten: false, focusMoved: false };
            const current = field, value = element.value;
            setTimeout(() => { if (element.value !== value) current.rewritten = true; }, 0);
          }, true);
          addEventListener('focusout', (event) => {
            if (!field || !field.elements.includes(event.target)) return;
            // The focus left while a character key was down: the page moved it, not the person.
            if (keyDown && keyDown.length === 1) { field.focusMoved = true; return; }
            flush();
          }, true);
          addEventListener('change', (event) => {
            const element = event.target;
            if (!event.isTrusted || !(element instanceof HTMLSelectElement)) return;
            flush();
            const option = element.selectedOptions[0];
            post(Object.assign(describe(element), { kind: 'select', option: option ? (option.value || option.text) : '' }));
          }, true);
          addEventListener('click', (event) => {
            if (!event.isTrusted || !(event.target instanceof Element)) return;
            const target = event.target;
            if (target.localName === 'iframe') return note('a click in an iframe is out of scope: it was not recorded');
            if (target.localName.includes('-') && !target.shadowRoot && event.composedPath()[0] === target && target.children.length === 0) {
              return note('a click in <' + target.localName + '> (a closed shadow root?) is out of scope: it was recorded on its host');
            }
            const element = target.closest('button, a, input, select, textarea, label, summary, [role=button], [role=link], [role=option], '
              + '[role=menuitem], [role=radio], [role=checkbox], [role=tab], li, [onclick], [tabindex]') || target;
            if (textual(element) || element.localName === 'select' || element.localName === 'label') return;
            // Enter in a field submits its form with a click on the default button: the Enter is the action.
            if (enterPressed && event.detail === 0) return;
            flush();
            if (element.type === 'checkbox') return post(Object.assign(describe(element), { kind: element.checked ? 'check' : 'uncheck' }));
            const text = (element.innerText || element.value || '').trim().replace(/\\s+/g, ' ').slice(0, 80);
            post(Object.assign(describe(element), { kind: 'click', text }));
          }, true);
          document.addEventListener('\(PasskeyPageScript.requestEvent)', (event) => {
            let message;
            try { message = JSON.parse(event.detail); } catch (error) { return; }
            if (message && (message.kind === 'create' || message.kind === 'get')) post({ kind: 'passkey', text: message.kind });
          }, true);
          addEventListener('pagehide', flush, true);
          // The page is reported once it is on the screen: at its first frame after parsing, whose
          // rendering update applies `autofocus` before it runs animation frame callbacks, so a
          // person who types as soon as the page is reported types into the focused field.
          document.addEventListener('DOMContentLoaded', () => requestAnimationFrame(() => post({ kind: 'page' })));
        })();
        """
}
