import type { Catalog } from '../messages';

/** Español. */
export const es: Catalog = {
  'label.malformed_request': 'No se pudo leer la solicitud.',
  'label.payload_too_large': 'El cuerpo de la solicitud supera el tamaño permitido.',
  'label.invalid_api_key': 'El encabezado x-api-key falta, es desconocido o fue revocado.',
  'label.invalid_credentials':
    'La place_api_key y la partner_api_key no identifican un gimnasio de este socio.',
  'label.invalid_token': 'El token de acceso está mal formado, fue alterado o ya no es válido.',
  'label.token_expired': 'El token de acceso expiró; solicite uno nuevo en POST /partner/auth.',
  'label.not_found': 'No encontrado.',
  'label.invalid_parameter': 'La solicitud no es válida.',
  'label.invalid_gym': 'El service_provider_code no es el gimnasio de esta clave de API.',
  'label.invalid_plan': 'El código de plan no es un plan activo de este gimnasio.',
  'label.not_exists': 'Ningún beneficiario con un plan de beneficio activo tiene este identificador.',
  'label.already_used': 'Se registró hace poco un check-in en este gimnasio.',
  'label.already_used_other_gym': 'Se registró hace poco un check-in en otro gimnasio.',
  'label.gym_with_more_than_one_plan':
    'Este gimnasio tiene más de un plan; envíe el service_provider_plan_code.',
  'label.inactive_employee': 'El beneficiario está inactivo.',
  'label.gym_inactive': 'Este gimnasio está inactivo o dado de baja.',
  'label.plan_not_allowed': 'El plan de beneficio del beneficiario no da acceso al plan de este gimnasio.',
  'label.usage_limit_reached': 'Se alcanzó el límite mensual de visitas del plan de beneficio.',
  'label.rate_limited': 'Demasiadas solicitudes; reintente después del tiempo indicado en Retry-After.',
  'label.internal_error': 'Ocurrió un error inesperado.',
  'label.service_unavailable':
    'El servicio no puede responder ahora; reintente después del tiempo indicado en Retry-After.',
  'label.check_in_not_available':
    'Este check-in ya no está pendiente: fue confirmado, cancelado o reemplazado.',
  'label.check_in_expired_alert':
    'Este check-in venció; el beneficiario debe hacer check-in de nuevo en la app.',

  'request.bodyNotJson': 'El cuerpo de la solicitud no es un JSON válido.',
  'request.bodyNotObject': 'El cuerpo de la solicitud debe ser un objeto JSON.',
  'request.bodyTooDeep': 'El cuerpo de la solicitud anida listas u objetos con demasiada profundidad.',
  'request.bodyTooManyFields': 'Un objeto del cuerpo de la solicitud tiene más de {{max}} campos.',
  'request.bodyTooManyValues':
    'El cuerpo de la solicitud tiene más de {{max}} valores (elementos de listas y campos de objetos, en todos los niveles).',
  'request.queryTooManyFields': 'La cadena de consulta tiene más de {{max}} parámetros.',
  'request.timeout': 'La solicitud no llegó completa a tiempo; la conexión se cerró.',
  'request.headersTooLarge': 'Los encabezados de la solicitud superan el límite de tamaño.',
  'request.badUrl': 'La URL no es válida: contiene una codificación % mal formada.',
  'request.pathTooLong': 'Un segmento de la ruta de la URL supera el límite de longitud.',
  'request.unreadable': 'No se pudo leer la solicitud.',
  'request.shuttingDown': 'El servicio se está reiniciando; reintente en un momento.',
  'request.addressShareUsed':
    'Hay demasiadas solicitudes de su dirección en curso a la vez; vuelva a intentarlo en un momento.',
  'request.routeNotFound': 'No existe la ruta {{method}} {{path}}.',
  'request.authenticationRequired': 'Se requiere autenticación.',
  'request.databaseUnavailable':
    'El servicio no puede acceder a su base de datos en este momento; reintente en unos instantes.',
  'request.databaseBusy':
    'Otras solicitudes modificaban los mismos registros en el mismo momento; reintente en unos instantes.',
  'request.internalError':
    'Ocurrió un error inesperado. Indique al soporte el id de solicitud {{requestId}}.',

  'auth.bearerMissing': 'Envíe el token de acceso como Authorization: Bearer <ACCESS_TOKEN>.',
  'auth.adminTokenMissing':
    'Envíe el token de administración como Authorization: Bearer <ADMIN_API_TOKEN>, o inicie sesión en la consola.',
  'auth.adminTokenInvalid': 'El token de administración no es válido.',
  'auth.memberTokenMissing':
    'Envíe el token de la API de miembros como Authorization: Bearer <MEMBER_API_TOKEN>.',
  'auth.memberTokenInvalid': 'El token de la API de miembros no es válido.',

  'field.required': '{{field}} es obligatorio',
  'field.requiredString': '{{field}} es obligatorio y debe ser un texto',
  'field.mustBeString': '{{field}} debe ser un texto',
  'field.mustBeBoolean': '{{field}} debe ser verdadero o falso',
  'field.tooLong': '{{field}} debe tener como máximo {{max}} caracteres',
  'field.invalid': '{{field}} no es válido',
  'field.oneOf': '{{field}} debe ser uno de: {{values}}',
  'field.cpf': '{{field}} debe ser un CPF de 11 dígitos',
  'field.cpfCheckDigits': '{{field}} debe tener 11 dígitos con dígitos verificadores válidos',
  'field.beneficiaryCode': '{{field}} debe ser un código de beneficiario',
  'field.calendarDate': '{{field}} debe ser una fecha real con el formato AAAA-MM-DD',
  'field.dateOrInstant': '{{field}} debe ser una fecha (AAAA-MM-DD) o una fecha y hora ISO 8601',
  'field.taken': '{{field}} {{value}} ya está en uso',
  'field.codeTakenByBeneficiary': 'el código {{value}} ya pertenece a otro beneficiario',
  'field.codeTakenByPlace': 'el código {{value}} ya pertenece a otro gimnasio',
  'field.codeTakenByPlan': 'el código {{value}} ya pertenece a otro plan',
  'field.checkInToken': '{{field}} debe ser un token de check-in de 6 dígitos',

  'validation.isString': '{{field}} debe ser un texto',
  'validation.isBoolean': '{{field}} debe ser verdadero o falso',
  'validation.isInt': '{{field}} debe ser un número entero',
  'validation.isArray': '{{field}} debe ser una lista',
  'validation.isNotEmpty': '{{field}} no puede estar vacío',
  'validation.isEmail': '{{field}} debe ser una dirección de correo electrónico',
  'validation.min': '{{field}} no puede ser menor que {{min}}',
  'validation.max': '{{field}} no puede ser mayor que {{max}}',
  'validation.maxLength': '{{field}} debe tener como máximo {{max}} caracteres',
  'validation.arrayMaxSize': '{{field}} debe tener como máximo {{max}} elementos',
  'validation.matches': '{{field}} tiene un formato inválido',
  'validation.isCalendarDate': '{{field}} debe ser una fecha real con el formato AAAA-MM-DD',
  'validation.notBlank': '{{field}} no puede quedar en blanco',
  'validation.eightCharacterCode': '{{field}} debe tener 8 caracteres de A-Z y 0-9',
  'validation.benefitPlanCode': '{{field}} debe tener de 1 a 32 caracteres de A-Z, 0-9, _ o -',
  'validation.positiveInteger': '{{field}} debe ser un número entero positivo',
  'validation.deliveryStatus': '{{field}} debe ser uno de: pending, queued, delivered, failed',
  'validation.checkInStatus': '{{field}} debe ser uno de: pending, validated, expired, cancelled',
  'validation.monthlyVisitLimit':
    '{{field}} debe ser un número entero de 1 a 4294967295, o null para ilimitado',
  'validation.bulkTooManyRows': '{{field}} debe tener como máximo {{max}} filas; divida la importación',
  'validation.invalid': '{{field}} no es válido',

  'trackUsage.dataShape': 'data debe ser un objeto con type y attributes',
  'trackUsage.dataType': 'data.type debe ser track_usage',
  'trackUsage.attributesShape': 'data.attributes debe ser un objeto',
  'trackUsage.idempotencyKeyLength': 'Idempotency-Key debe tener de 1 a {{max}} caracteres',
  'trackUsage.idempotencyKeyReused': 'La Idempotency-Key {{key}} ya se usó en una solicitud diferente',

  'checkIn.invalidGym':
    'El service_provider_code {{given}} no es el gimnasio de esta clave de API ({{expected}}).',
  'checkIn.invalidPlan': '{{plan}} no es un plan activo de este gimnasio.',
  'checkIn.moreThanOnePlan':
    'Este gimnasio tiene {{plans}} planes; envíe el service_provider_plan_code con uno de: {{codes}}.',
  'checkIn.notExistsCpf': 'Ningún beneficiario con un plan de beneficio activo tiene este CPF.',
  'checkIn.notExistsCode': 'Ningún beneficiario con un plan de beneficio activo tiene este código.',
  'checkIn.notExistsToken': 'Ningún check-in en este gimnasio tiene el token {{token}}.',
  'checkIn.planNotAllowed':
    'El plan de beneficio del beneficiario (nivel {{granted}}) no da acceso al plan {{plan}} (nivel {{tier}}).',
  'checkIn.alreadyUsed':
    'Se registró un check-in en este gimnasio a las {{at}}; reintente después de las {{retry}}.',
  'checkIn.alreadyUsedOtherGym':
    'Se registró un check-in en otro gimnasio a las {{at}}; reintente después de las {{retry}}.',
  'checkIn.usageLimitReached':
    'Se alcanzó el límite mensual de {{limit}} visitas del plan de beneficio ({{visits}} este mes).',

  'memberCheckIn.notFound': 'No existe el check-in {{id}}.',
  'memberCheckIn.confirmationNotFound': 'Ningún check-in tiene esta dirección de confirmación.',
  'memberCheckIn.gymNotFound': 'Ningún gimnasio tiene el service_provider_code {{code}}.',
  'memberCheckIn.beneficiaryGone':
    'El beneficiario de este check-in ya no tiene un plan de beneficio activo.',
  'memberCheckIn.validated': 'Este check-in ya fue confirmado el {{at}}.',
  'memberCheckIn.cancelled': 'Este check-in fue cancelado el {{at}}.',
  'memberCheckIn.replaced':
    'Este check-in fue reemplazado el {{at}} por un check-in más reciente del beneficiario.',
  'memberCheckIn.expired':
    'Este check-in venció el {{at}}; el beneficiario debe hacer check-in de nuevo en la app.',
  'memberCheckIn.expiredNotCancellable': 'Este check-in venció el {{at}}; ya no hay nada que cancelar.',
  'webhooks.testEventsLimited':
    'Demasiados eventos de prueba para este lugar; reintente en {{seconds}} segundos.',
  'memberCheckIn.tokenLookupsLimited':
    'Se enviaron con esta clave demasiados tokens de check-in que no existen; reintente en {{seconds}} segundos.',

  'plans.idNotCode': 'id debe ser un código de plan',
  'plans.idEmpty': 'id está vacío; envíe un código de plan.',
  'plans.placeGone': 'El gimnasio de este token ya no existe.',

  'controlPanel.partnerNotFound': 'No existe el socio {{id}}.',
  'controlPanel.placeNotFound': 'No existe el gimnasio {{id}}.',
  'controlPanel.planNotFound': 'No existe el plan {{code}} en este gimnasio.',
  'controlPanel.benefitPlanNotFound': 'No existe el plan de beneficio {{code}}.',
  'controlPanel.benefitPlanExists':
    'el plan de beneficio {{value}} ya existe; cámbielo con PATCH /admin/benefit-plans/{{value}}',
  'controlPanel.cpfTaken':
    'el cpf ya pertenece a un beneficiario; cámbielo con PATCH /admin/beneficiaries/:cpf',
  'controlPanel.benefitPlanMissing': 'benefit_plan_code {{code}} no existe',
  'controlPanel.beneficiaryNotFound': 'Ningún beneficiario tiene este CPF o código.',
  'bulk.rowNotObject': 'la fila debe ser un objeto',
  'bulk.cpfRepeated': 'cpf repetido; se usó la fila de índice {{index}}',
  'bulk.codeRepeated': 'código repetido; se usó la fila de índice {{index}}',

  'webhooks.exists':
    'Ya existe un webhook {{type}} para este gimnasio; cámbielo con PUT /partner/webhook/update',
  'webhooks.missing': 'No hay webhook {{type}} para este gimnasio; cree uno con POST /partner/webhook/create',
  'webhooks.deliveryNotFound': 'No existe la entrega {{id}}',
  'webhooks.deliveryBusy':
    'La entrega {{id}} sigue pendiente o en cola; reenvíela cuando esté entregada o fallida',
  'webhooks.urlRequired': 'webhook_url es obligatorio y debe ser un texto',
  'webhooks.urlNotAbsolute': 'webhook_url debe ser una URL absoluta',
  'webhooks.urlHttpsOnly': 'webhook_url debe usar https',
  'webhooks.urlHttpOrHttps': 'webhook_url debe usar http o https',
  'webhooks.urlUserInfo': 'webhook_url no puede llevar usuario ni contraseña',
  'webhooks.urlPrivateAddress':
    'webhook_url debe indicar una dirección pública: se rechazan las direcciones privadas, de loopback, de enlace local, reservadas y las IPv6 que contienen una IPv4',
  'webhooks.urlTooLong':
    'webhook_url debe tener como máximo {{max}} caracteres una vez normalizada (percent-encoding, punycode)',
  'console.notBuilt': 'La consola no está compilada: ejecute npm run build.',

  'label.invalid_session': 'Inicie sesión: no hay sesión, o ya terminó.',
  'label.forbidden': 'Su rol no puede hacer esto.',
  'auth.roleForbidden': 'El rol {{role}} no puede hacer esto.',
  'session.invalidCredentials': 'El correo y la contraseña no corresponden a una cuenta activa.',
  'session.ended': 'Su sesión terminó o no existe; inicie sesión de nuevo.',
  'session.csrfMissing':
    'Un cambio hecho con una sesión debe llevar su X-CSRF-Token (o venir del propio origen de la consola).',
  'session.tooManyFailures':
    'Demasiados intentos fallidos de inicio de sesión; reintente en {{seconds}} segundos.',
  'passwordLink.notFound': 'Este enlace es desconocido, ya se usó o expiró; pida uno nuevo a un operador.',
  'accounts.emailTaken': 'el email {{value}} ya pertenece a una cuenta',
  'validation.passwordLength': '{{field}} debe tener de 12 a 256 caracteres',
  'validation.pageSize': '{{field}} debe ser un número entero de 1 a 200',

  'accounts.notFound': 'No existe la cuenta {{id}}.',
  'accounts.scopeOnlyForGym': 'solo una cuenta de gimnasio tiene partner_id o place_ids',
  'accounts.scopeBoth': 'una cuenta de gimnasio tiene partner_id o place_ids, no ambos',
  'accounts.scopeRequired':
    'una cuenta de gimnasio necesita partner_id (una cadena entera) o place_ids (sedes listadas)',
  'accounts.partnerMissing': 'el partner_id {{id}} no existe',
  'accounts.placeMissing': 'place_ids: la sede {{id}} no existe',
  'accounts.selfChange': 'no puede desactivar su propia cuenta ni cambiar su rol',
  'accounts.disabled':
    'la cuenta {{id}} está desactivada; actívela antes de enviarle un enlace de contraseña',
  'validation.role': '{{field}} debe ser uno de: operator, support, gym',

  'auth.dashboardCredentials':
    'El panel de colas necesita una sesión de la consola (operator o support) o basic auth: usuario admin, contraseña ADMIN_API_TOKEN.',

  // Wellhub-compatible access control
  'field.memberNumber': '{{field}} debe ser un número de miembro: 13 dígitos, el primero distinto de 0',
  'checkIn.notExistsMemberNumber':
    'Ningún beneficiario con un plan de beneficio activo tiene este número de miembro.',
  'access.unauthorized':
    'Envíe la clave de API del socio o del gimnasio en Authorization: Bearer <clave> (o X-Api-Key).',
  'access.gymRequired': 'Envíe el gym_id del gimnasio en la cabecera X-Gym-Id.',
  'access.gymNotCovered': 'Esta clave no da acceso al gimnasio {{gym}}.',
  'access.gymMismatch': 'El X-Gym-Id {{header}} no es el gimnasio de la ruta ({{gym}}).',
  'access.checkInNotFound': 'El miembro {{member}} no tiene un check-in en este gimnasio para validar hoy.',
  'access.memberNotFound': 'Ningún miembro tiene el número {{member}}.',
  'access.customCode': 'custom_code debe tener de 1 a 13 caracteres.',
  'access.lookupsLimited':
    'Se enviaron con esta clave demasiadas validaciones sin check-in; reintente en {{seconds}} segundos.',
  'access.webhooksShape': 'webhooks debe ser una lista de objetos {event, url, secret}.',
  'access.invalidEvent': 'Evento de webhook desconocido: {{event}}; este servicio envía: checkin.',
  'access.webhookSecret': 'secret debe ser un texto de 1 a 100 caracteres.',
  'access.sandboxOff': 'El sandbox está apagado en este servicio (ACCESS_SANDBOX).',
  'access.productNotFound': 'El product_id {{product}} no es un plan activo de este gimnasio.',
};
