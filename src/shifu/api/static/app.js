"use strict";
// Minimal H5 chat client: picks a demo actor, sends messages, renders status, citations and cards.
(function () {
  const state = { token: null, conversationId: null, contextVersion: null, clientId: "staff-app" };
  const messages = document.getElementById("messages");
  const actorSelect = document.getElementById("actor");

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function scroll() { messages.scrollTop = messages.scrollHeight; }

  async function loadActors() {
    const res = await fetch("/api/demo/actors");
    if (!res.ok) return;
    const actors = await res.json();
    document.getElementById("actor-picker").hidden = false;
    for (const a of actors) {
      const opt = el("option", null, a.name + "（" + a.label + "）");
      opt.value = a.key;
      opt.dataset.token = a.token;
      opt.dataset.client = a.clientId;
      actorSelect.appendChild(opt);
    }
    selectActor();
  }

  function selectActor() {
    const opt = actorSelect.selectedOptions[0];
    if (!opt) return;
    state.token = opt.dataset.token;
    state.clientId = opt.dataset.client;
    state.conversationId = null;
    state.contextVersion = null;
    messages.textContent = "";
  }

  function renderResponse(data) {
    const bubble = el("div", "bubble bot");
    const status = el("div", "status");
    status.append("状态：", el("b", null, data.status), " · 意图：" + data.intent);
    bubble.appendChild(status);
    bubble.appendChild(el("div", "answer", data.answer));
    if (data.sourceSummary && data.sourceSummary.length) {
      bubble.appendChild(el("div", "sources", "来源：" + data.sourceSummary.map(s => s.label).join("、")));
    }
    if (data.citations && data.citations.length) {
      const list = el("ol", "citations");
      for (const c of data.citations) {
        list.appendChild(el("li", null, c.title + " " + c.locator + "（" + c.version + "）"));
      }
      bubble.appendChild(list);
    }
    if (data.resources && data.resources.length) {
      for (const r of data.resources) {
        const link = el("a", null, "下载：" + r.title);
        link.href = "#";
        link.onclick = (e) => { e.preventDefault(); download(r); };
        bubble.appendChild(el("div", "card")).appendChild(link);
      }
    }
    if (data.clarification && data.clarification.options.length) {
      const box = el("div", "options");
      for (const o of data.clarification.options) {
        const b = el("button", null, o.label);
        b.type = "button";
        b.onclick = () => send(o.value);
        box.appendChild(b);
      }
      bubble.appendChild(box);
    }
    if (data.actionDraft) bubble.appendChild(renderDraft(data.actionDraft));
    messages.appendChild(bubble);
    scroll();
  }

  const FIELD_LABELS = {
    content: "内容", location: "位置", projectName: "项目", project: "项目", assigneeName: "指派对象",
    topic: "训练主题", recipient: "接收人", visibility: "保存范围",
  };
  const VISIBILITY_LABELS = { PRIVATE: "仅自己可见", COMPANY: "公司记录（需审核）" };

  function renderDraft(draft) {
    const card = el("div", "card");
    card.appendChild(el("div", null, draft.title.startsWith("待确认") ? draft.title : "待确认：" + draft.title));
    card.appendChild(el("div", null, "范围：" + draft.scope + " · 对象：" + draft.target));
    for (const [k, v] of Object.entries(draft.fields)) {
      // Internal ids and unset values mean nothing to the user; the readable name is shown instead.
      if (v === null || v === "" || /Id$/.test(k) || k === "visibility") continue;
      const value = typeof v === "object" ? JSON.stringify(v) : String(v);
      card.appendChild(el("div", null, (FIELD_LABELS[k] || k) + "：" + value));
    }
    let visibility = null;
    if (draft.visibilityOptions.length) {
      const picker = el("select", "visibility");
      picker.setAttribute("aria-label", "保存范围");
      for (const option of draft.visibilityOptions) {
        const opt = el("option", null, VISIBILITY_LABELS[option] || option);
        opt.value = option;
        picker.appendChild(opt);
      }
      const row = el("div", null, "保存范围：");
      row.appendChild(picker);
      card.appendChild(row);
      visibility = () => picker.value;
    }
    const confirm = el("button", null, "确认");
    confirm.type = "button";
    const dismiss = el("button", null, "取消");
    dismiss.type = "button";
    // One decision per card: both buttons are disabled once either is clicked.
    const decide = (verb, value) => { confirm.disabled = dismiss.disabled = true; act(draft, verb, value); };
    confirm.onclick = () => decide("confirm", visibility ? visibility() : null);
    dismiss.onclick = () => decide("dismiss", null);
    card.append(confirm, dismiss);
    return card;
  }

  async function act(draft, verb, visibility) {
    const body = { expectedVersion: draft.version };
    if (verb === "confirm") {
      body.idempotencyKey = crypto.randomUUID ? crypto.randomUUID() : String(Date.now());
      if (visibility) body.visibility = visibility;
    }
    const res = await fetch("/api/aihr/agent/actions/" + encodeURIComponent(draft.draftId) + "/" + verb, {
      method: "POST", headers: headers(), body: JSON.stringify(body),
    });
    const data = await res.json();
    const text = res.ok ? (data.message || JSON.stringify(data)) : data.message;
    messages.appendChild(el("div", "bubble bot" + (res.ok ? "" : " error"), text));
    scroll();
  }

  async function download(resource) {
    const res = await fetch(resource.url, { headers: headers() });
    if (!res.ok) {
      const data = await res.json();
      messages.appendChild(el("div", "bubble bot error", data.message));
      return;
    }
    const blob = await res.blob();
    const a = el("a");
    a.href = URL.createObjectURL(blob);
    a.download = resource.title;
    a.click();
  }

  function headers() {
    return {
      "Content-Type": "application/json",
      "Authorization": "Bearer " + state.token,
      "X-Client-Id": state.clientId,
    };
  }

  async function send(text) {
    messages.appendChild(el("div", "bubble user", text));
    scroll();
    const body = { text: text };
    if (state.conversationId) {
      body.conversationId = state.conversationId;
      body.contextVersion = state.contextVersion;
    }
    try {
      const res = await fetch("/api/aihr/agent/messages", {
        method: "POST", headers: headers(), body: JSON.stringify(body),
      });
      const data = await res.json();
      if (!res.ok) {
        messages.appendChild(el("div", "bubble bot error", data.message + "（" + data.code + "）"));
        if (data.currentVersion !== undefined) state.contextVersion = data.currentVersion;
        scroll();
        return;
      }
      state.conversationId = data.conversationId;
      state.contextVersion = data.contextVersion;
      renderResponse(data);
    } catch (err) {
      messages.appendChild(el("div", "bubble bot error", "网络异常，请稍后再试。"));
    }
  }

  document.getElementById("composer").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = document.getElementById("text");
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    send(text);
  });
  actorSelect.addEventListener("change", selectActor);
  loadActors();
})();
