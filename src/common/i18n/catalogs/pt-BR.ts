import type { Catalog } from '../messages';

/** Português do Brasil: a língua das recepções das academias e o padrão do serviço. */
export const ptBR: Catalog = {
  'label.malformed_request': 'Não foi possível ler a requisição.',
  'label.payload_too_large': 'O corpo da requisição passa do tamanho permitido.',
  'label.invalid_api_key': 'O cabeçalho x-api-key está ausente, é desconhecido ou foi revogado.',
  'label.invalid_credentials':
    'A place_api_key e a partner_api_key não identificam uma academia deste parceiro.',
  'label.invalid_token': 'O token de acesso está malformado, foi adulterado ou não é mais válido.',
  'label.token_expired': 'O token de acesso expirou; peça um novo em POST /partner/auth.',
  'label.not_found': 'Não encontrado.',
  'label.invalid_parameter': 'A requisição não é válida.',
  'label.invalid_gym': 'O service_provider_code não é a academia desta chave de API.',
  'label.invalid_plan': 'O código do plano não é um plano ativo desta academia.',
  'label.not_exists': 'Nenhum beneficiário com plano de benefício ativo tem este identificador.',
  'label.already_used': 'Um check-in nesta academia foi registrado há pouco.',
  'label.already_used_other_gym': 'Um check-in em outra academia foi registrado há pouco.',
  'label.gym_with_more_than_one_plan':
    'Esta academia tem mais de um plano; envie o service_provider_plan_code.',
  'label.inactive_employee': 'O beneficiário está inativo.',
  'label.gym_inactive': 'Esta academia está inativa ou descredenciada.',
  'label.plan_not_allowed': 'O plano de benefício do beneficiário não dá acesso ao plano desta academia.',
  'label.usage_limit_reached': 'O limite mensal de visitas do plano de benefício foi atingido.',
  'label.rate_limited': 'Requisições demais; tente de novo depois do tempo indicado em Retry-After.',
  'label.internal_error': 'Ocorreu um erro inesperado.',
  'label.service_unavailable':
    'O serviço não pode responder agora; tente de novo após o tempo indicado em Retry-After.',
  'label.check_in_not_available':
    'Este check-in não está mais pendente: foi confirmado, cancelado ou substituído.',
  'label.check_in_expired_alert':
    'Este check-in expirou; o beneficiário precisa fazer check-in de novo no app.',

  'request.bodyNotJson': 'O corpo da requisição não é um JSON válido.',
  'request.bodyNotObject': 'O corpo da requisição deve ser um objeto JSON.',
  'request.bodyTooDeep': 'O corpo da requisição aninha listas ou objetos em profundidade demais.',
  'request.bodyTooManyFields': 'Um objeto do corpo da requisição tem mais de {{max}} campos.',
  'request.bodyTooManyValues':
    'O corpo da requisição tem mais de {{max}} valores (elementos de listas e campos de objetos, em todos os níveis).',
  'request.queryTooManyFields': 'A query string tem mais de {{max}} parâmetros.',
  'request.timeout': 'A requisição não chegou inteira a tempo; a conexão foi encerrada.',
  'request.headersTooLarge': 'Os cabeçalhos da requisição passam do limite de tamanho.',
  'request.badUrl': 'A URL não é válida: contém uma codificação % malformada.',
  'request.pathTooLong': 'Um trecho do caminho da URL passa do limite de tamanho.',
  'request.unreadable': 'Não foi possível ler a requisição.',
  'request.shuttingDown': 'O serviço está reiniciando; tente de novo em instantes.',
  'request.addressShareUsed':
    'Há requisições demais do seu endereço em andamento ao mesmo tempo; tente de novo em instantes.',
  'request.routeNotFound': 'Não existe a rota {{method}} {{path}}.',
  'request.authenticationRequired': 'É preciso autenticar-se.',
  'request.databaseUnavailable':
    'O serviço não consegue acessar o banco de dados agora; tente de novo em instantes.',
  'request.databaseBusy':
    'Outras requisições alteravam os mesmos registros no mesmo instante; tente de novo em instantes.',
  'request.internalError': 'Ocorreu um erro inesperado. Informe ao suporte o id da requisição {{requestId}}.',

  'auth.bearerMissing': 'Envie o token de acesso como Authorization: Bearer <ACCESS_TOKEN>.',
  'auth.adminTokenMissing':
    'Envie o token de administração como Authorization: Bearer <ADMIN_API_TOKEN>, ou entre no console.',
  'auth.adminTokenInvalid': 'O token de administração não é válido.',
  'auth.memberTokenMissing': 'Envie o token da API de membros como Authorization: Bearer <MEMBER_API_TOKEN>.',
  'auth.memberTokenInvalid': 'O token da API de membros não é válido.',

  'field.required': '{{field}} é obrigatório',
  'field.requiredString': '{{field}} é obrigatório e deve ser um texto',
  'field.mustBeString': '{{field}} deve ser um texto',
  'field.mustBeBoolean': '{{field}} deve ser verdadeiro ou falso',
  'field.tooLong': '{{field}} deve ter no máximo {{max}} caracteres',
  'field.invalid': '{{field}} não é válido',
  'field.oneOf': '{{field}} deve ser um destes: {{values}}',
  'field.cpf': '{{field}} deve ser um CPF de 11 dígitos',
  'field.cpfCheckDigits': '{{field}} deve ter 11 dígitos com dígitos verificadores válidos',
  'field.beneficiaryCode': '{{field}} deve ser um código de beneficiário',
  'field.calendarDate': '{{field}} deve ser uma data real no formato AAAA-MM-DD',
  'field.dateOrInstant': '{{field}} deve ser uma data (AAAA-MM-DD) ou uma data e hora ISO 8601',
  'field.taken': '{{field}} {{value}} já está em uso',
  'field.codeTakenByBeneficiary': 'o código {{value}} já pertence a outro beneficiário',
  'field.codeTakenByPlace': 'o código {{value}} já pertence a outra academia',
  'field.codeTakenByPlan': 'o código {{value}} já pertence a outro plano',
  'field.checkInToken': '{{field}} deve ser um token de check-in de 6 dígitos',

  'validation.isString': '{{field}} deve ser um texto',
  'validation.isBoolean': '{{field}} deve ser verdadeiro ou falso',
  'validation.isInt': '{{field}} deve ser um número inteiro',
  'validation.isArray': '{{field}} deve ser uma lista',
  'validation.isNotEmpty': '{{field}} não pode ser vazio',
  'validation.isEmail': '{{field}} deve ser um endereço de e-mail',
  'validation.min': '{{field}} não pode ser menor que {{min}}',
  'validation.max': '{{field}} não pode ser maior que {{max}}',
  'validation.maxLength': '{{field}} deve ter no máximo {{max}} caracteres',
  'validation.arrayMaxSize': '{{field}} deve ter no máximo {{max}} itens',
  'validation.matches': '{{field}} está num formato inválido',
  'validation.isCalendarDate': '{{field}} deve ser uma data real no formato AAAA-MM-DD',
  'validation.notBlank': '{{field}} não pode ficar em branco',
  'validation.eightCharacterCode': '{{field}} deve ter 8 caracteres de A-Z e 0-9',
  'validation.benefitPlanCode': '{{field}} deve ter de 1 a 32 caracteres de A-Z, 0-9, _ ou -',
  'validation.positiveInteger': '{{field}} deve ser um número inteiro positivo',
  'validation.deliveryStatus': '{{field}} deve ser um destes: pending, queued, delivered, failed',
  'validation.checkInStatus': '{{field}} deve ser um destes: pending, validated, expired, cancelled',
  'validation.monthlyVisitLimit':
    '{{field}} deve ser um número inteiro de 1 a 4294967295, ou null para ilimitado',
  'validation.bulkTooManyRows': '{{field}} deve ter no máximo {{max}} linhas; divida a importação',
  'validation.invalid': '{{field}} não é válido',

  'trackUsage.dataShape': 'data deve ser um objeto com type e attributes',
  'trackUsage.dataType': 'data.type deve ser track_usage',
  'trackUsage.attributesShape': 'data.attributes deve ser um objeto',
  'trackUsage.idempotencyKeyLength': 'Idempotency-Key deve ter de 1 a {{max}} caracteres',
  'trackUsage.idempotencyKeyReused': 'A Idempotency-Key {{key}} já foi usada numa requisição diferente',

  'checkIn.invalidGym':
    'O service_provider_code {{given}} não é a academia desta chave de API ({{expected}}).',
  'checkIn.invalidPlan': '{{plan}} não é um plano ativo desta academia.',
  'checkIn.moreThanOnePlan':
    'Esta academia tem {{plans}} planos; envie o service_provider_plan_code com um destes: {{codes}}.',
  'checkIn.notExistsCpf': 'Nenhum beneficiário com plano de benefício ativo tem este CPF.',
  'checkIn.notExistsCode': 'Nenhum beneficiário com plano de benefício ativo tem este código.',
  'checkIn.notExistsToken': 'Nenhum check-in nesta academia tem o token {{token}}.',
  'checkIn.planNotAllowed':
    'O plano de benefício do beneficiário (nível {{granted}}) não dá acesso ao plano {{plan}} (nível {{tier}}).',
  'checkIn.alreadyUsed':
    'Um check-in nesta academia foi registrado às {{at}}; tente de novo depois das {{retry}}.',
  'checkIn.alreadyUsedOtherGym':
    'Um check-in em outra academia foi registrado às {{at}}; tente de novo depois das {{retry}}.',
  'checkIn.usageLimitReached':
    'O limite mensal de {{limit}} visitas do plano de benefício foi atingido ({{visits}} neste mês).',

  'memberCheckIn.notFound': 'Não existe o check-in {{id}}.',
  'memberCheckIn.confirmationNotFound': 'Nenhum check-in tem este endereço de confirmação.',
  'memberCheckIn.gymNotFound': 'Nenhuma academia tem o service_provider_code {{code}}.',
  'memberCheckIn.beneficiaryGone': 'O beneficiário deste check-in não tem mais um plano de benefício ativo.',
  'memberCheckIn.validated': 'Este check-in já foi confirmado em {{at}}.',
  'memberCheckIn.cancelled': 'Este check-in foi cancelado em {{at}}.',
  'memberCheckIn.replaced':
    'Este check-in foi substituído em {{at}} por um check-in mais recente do beneficiário.',
  'memberCheckIn.expired':
    'Este check-in expirou em {{at}}; o beneficiário precisa fazer check-in de novo no app.',
  'memberCheckIn.expiredNotCancellable': 'Este check-in expirou em {{at}}; não há mais o que cancelar.',
  'webhooks.testEventsLimited':
    'Eventos de teste demais para este local; tente de novo em {{seconds}} segundos.',
  'memberCheckIn.tokenLookupsLimited':
    'Foram enviados com esta chave tokens de check-in inexistentes demais; tente de novo em {{seconds}} segundos.',

  'plans.idNotCode': 'id deve ser um código de plano',
  'plans.idEmpty': 'id está vazio; envie um código de plano.',
  'plans.placeGone': 'A academia deste token não existe mais.',

  'controlPanel.partnerNotFound': 'Não existe o parceiro {{id}}.',
  'controlPanel.placeNotFound': 'Não existe a academia {{id}}.',
  'controlPanel.planNotFound': 'Não existe o plano {{code}} nesta academia.',
  'controlPanel.benefitPlanNotFound': 'Não existe o plano de benefício {{code}}.',
  'controlPanel.benefitPlanExists':
    'o plano de benefício {{value}} já existe; altere-o com PATCH /admin/benefit-plans/{{value}}',
  'controlPanel.cpfTaken':
    'o cpf já pertence a um beneficiário; altere-o com PATCH /admin/beneficiaries/:cpf',
  'controlPanel.benefitPlanMissing': 'benefit_plan_code {{code}} não existe',
  'controlPanel.beneficiaryNotFound': 'Nenhum beneficiário tem este CPF ou código.',
  'bulk.rowNotObject': 'a linha deve ser um objeto',
  'bulk.cpfRepeated': 'cpf repetido; foi usada a linha de índice {{index}}',
  'bulk.codeRepeated': 'código repetido; foi usada a linha de índice {{index}}',

  'webhooks.exists':
    'Já existe um webhook {{type}} para esta academia; altere-o com PUT /partner/webhook/update',
  'webhooks.missing': 'Não há webhook {{type}} para esta academia; crie um com POST /partner/webhook/create',
  'webhooks.deliveryNotFound': 'Não existe a entrega {{id}}',
  'webhooks.deliveryBusy':
    'A entrega {{id}} ainda está pendente ou na fila; reenvie-a quando estiver entregue ou falhada',
  'webhooks.urlRequired': 'webhook_url é obrigatório e deve ser um texto',
  'webhooks.urlNotAbsolute': 'webhook_url deve ser uma URL absoluta',
  'webhooks.urlHttpsOnly': 'webhook_url deve usar https',
  'webhooks.urlHttpOrHttps': 'webhook_url deve usar http ou https',
  'webhooks.urlUserInfo': 'webhook_url não pode conter usuário nem senha',
  'webhooks.urlPrivateAddress':
    'webhook_url deve indicar um endereço público: endereços privados, de loopback, link-local, reservados e IPv6 que contêm um IPv4 são recusados',
  'webhooks.urlTooLong':
    'webhook_url deve ter no máximo {{max}} caracteres depois de normalizada (percent-encoding, punycode)',
  'console.notBuilt': 'O console não foi compilado: rode npm run build.',

  'label.invalid_session': 'Entre de novo: não há sessão, ou ela terminou.',
  'label.forbidden': 'O seu perfil não pode fazer isto.',
  'auth.roleForbidden': 'O perfil {{role}} não pode fazer isto.',
  'session.invalidCredentials': 'O e-mail e a senha não correspondem a uma conta ativa.',
  'session.ended': 'A sua sessão terminou ou não existe; entre de novo.',
  'session.csrfMissing':
    'Uma alteração feita com uma sessão precisa levar o X-CSRF-Token dela (ou vir da própria origem do console).',
  'session.tooManyFailures': 'Tentativas de entrada com erro demais; tente de novo em {{seconds}} segundos.',
  'passwordLink.notFound': 'Este link é desconhecido, já foi usado ou expirou; peça um novo a um operador.',
  'accounts.emailTaken': 'o email {{value}} já pertence a uma conta',
  'validation.passwordLength': '{{field}} deve ter de 12 a 256 caracteres',
  'validation.pageSize': '{{field}} deve ser um número inteiro de 1 a 200',

  'accounts.notFound': 'Não existe a conta {{id}}.',
  'accounts.scopeOnlyForGym': 'só uma conta de academia tem partner_id ou place_ids',
  'accounts.scopeBoth': 'uma conta de academia tem partner_id ou place_ids, não os dois',
  'accounts.scopeRequired':
    'uma conta de academia precisa de partner_id (uma rede inteira) ou place_ids (unidades listadas)',
  'accounts.partnerMissing': 'o partner_id {{id}} não existe',
  'accounts.placeMissing': 'place_ids: a unidade {{id}} não existe',
  'accounts.selfChange': 'você não pode desativar a sua própria conta nem mudar o perfil dela',
  'accounts.disabled': 'a conta {{id}} está desativada; ative-a antes de enviar um link de senha',
  'validation.role': '{{field}} deve ser um de: operator, support, gym',

  'auth.dashboardCredentials':
    'O painel das filas precisa de uma sessão do console (operator ou support) ou de basic auth: usuário admin, senha ADMIN_API_TOKEN.',

  // Wellhub-compatible access control
  'field.memberNumber': '{{field}} deve ser um número de membro: 13 dígitos, o primeiro diferente de 0',
  'checkIn.notExistsMemberNumber':
    'Nenhum beneficiário com plano de benefício ativo tem este número de membro.',
  'access.unauthorized':
    'Envie a chave de API do parceiro ou da academia em Authorization: Bearer <chave> (ou X-Api-Key).',
  'access.gymRequired': 'Envie o gym_id da academia no cabeçalho X-Gym-Id.',
  'access.gymNotCovered': 'Esta chave não dá acesso à academia {{gym}}.',
  'access.gymMismatch': 'O X-Gym-Id {{header}} não é a academia do caminho ({{gym}}).',
  'access.checkInNotFound': 'O membro {{member}} não tem check-in nesta academia para validar hoje.',
  'access.memberNotFound': 'Nenhum membro tem o número {{member}}.',
  'access.customCode': 'custom_code deve ter de 1 a 13 caracteres.',
  'access.lookupsLimited':
    'Foram enviadas com esta chave validações sem check-in demais; tente de novo em {{seconds}} segundos.',
  'access.webhooksShape': 'webhooks deve ser uma lista de objetos {event, url, secret}.',
  'access.invalidEvent': 'Evento de webhook desconhecido: {{event}}; este serviço envia: checkin.',
  'access.webhookSecret': 'secret deve ser um texto de 1 a 100 caracteres.',
  'access.sandboxOff': 'O sandbox está desligado neste serviço (ACCESS_SANDBOX).',
  'access.productNotFound': 'O product_id {{product}} não é um plano ativo desta academia.',
};
