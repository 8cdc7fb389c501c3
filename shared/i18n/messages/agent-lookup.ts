import { defineMessages } from '../define-messages';

/** An agent id that is not one of the caller's own: the agent routes', the device list's and the ledger's `agent`. */
export const agentLookupMessages = defineMessages({
  agent_not_found: {
    zh: '代理不存在或不是您的',
    en: 'Agent not found or not yours',
    'zh-TW': '代理不存在或不是您的',
    vi: 'Không tìm thấy đại lý hoặc đại lý không thuộc về bạn',
    ar: 'الوكيل غير موجود أو لا يخصك',
    es: 'El agente no existe o no es suyo',
    ru: 'Агент не найден или не принадлежит вам',
  },
});
